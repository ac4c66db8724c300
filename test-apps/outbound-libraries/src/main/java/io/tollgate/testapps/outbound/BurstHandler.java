package io.tollgate.testapps.outbound;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** {@code GET /burst?client=NAME&url=URL&calls=N&per-second=R}: runs a {@link Burst}. */
final class BurstHandler implements HttpHandler {

  private final Clients clients;

  BurstHandler(Clients clients) {
    this.clients = clients;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    int status = 200;
    String body;
    try {
      Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
      Clients.Client client = clients.named(query.get("client"));
      if (client == null) {
        status = 400;
        body = "{\"error\":\"unknown client " + query.get("client") + "; known: "
            + clients.names() + "\"}";
      } else {
        Burst burst = new Burst(client, query.get("url"),
            Integer.parseInt(query.getOrDefault("calls", "10")),
            Double.parseDouble(query.getOrDefault("per-second", "10")));
        body = burst.run().toJson(query.get("client"));
      }
    } catch (Exception e) {
      status = 500;
      body = "{\"error\":\"" + Burst.escape(String.valueOf(e)) + "\"}";
    }
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
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
}
