package io.tollgate.testapps.burst;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code GET /burst?client=NAME&url=URL&calls=N&per-second=R} (calls 10 and per-second 10 unless
 * given): runs a {@link Burst} and answers its {@link BurstReport}; 400 with {@code
 * {"error":"..."}} for an unknown client or a missing url.
 */
final class BurstHandler implements HttpHandler {

  private final Map<String, PartnerCall> calls;

  BurstHandler(Map<String, PartnerCall> calls) {
    this.calls = calls;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try {
      Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
      String client = query.get("client");
      PartnerCall call = client == null ? null : calls.get(client);
      String url = query.get("url");
      if (call == null) {
        answer(exchange, 400, error("unknown client " + client + "; known: "
            + String.join(", ", calls.keySet())));
      } else if (url == null) {
        answer(exchange, 400, error("url is missing"));
      } else {
        Burst burst = new Burst(call, url, Integer.parseInt(query.getOrDefault("calls", "10")),
            Double.parseDouble(query.getOrDefault("per-second", "10")));
        answer(exchange, 200, burst.run().toJson(client));
      }
    } catch (NumberFormatException e) {
      answer(exchange, 400, error(String.valueOf(e)));
    } catch (Exception e) {
      answer(exchange, 500, error(String.valueOf(e)));
    }
  }

  private static String error(String message) {
    return "{\"error\":\"" + BurstReport.escape(message) + "\"}";
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> query = new HashMap<>();
    if (raw == null) {
      return query;
    }
    for (String pair : raw.split("&")) {
      int equals = pair.indexOf('=');
      if (equals > 0) {
        query.put(URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
      }
    }
    return query;
  }

  static void answer(HttpExchange exchange, int status, String json) throws IOException {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    try (InputStream in = exchange.getRequestBody()) {
      in.readAllBytes();
    }
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }
}
