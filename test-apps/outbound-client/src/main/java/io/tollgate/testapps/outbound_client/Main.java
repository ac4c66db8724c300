package io.tollgate.testapps.outbound_client;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;

/**
 * An application that calls a partner: {@code GET /burst?client=NAME&url=URL&calls=N&per-second=R}
 * makes N calls to URL at R per second with one of the JDK's clients ({@code jdk-sync}, {@code
 * jdk-async}, {@code urlconnection}) and answers, as JSON, the count of each status, of each
 * exception class, and the longest call in milliseconds. Prints {@code listening on port PORT}
 * once it serves, on the port of the environment's {@code PORT} (else {@code -Dport}, else a free
 * one).
 */
public final class Main {

  private Main() {}

  public static void main(String[] args) throws IOException {
    String env = System.getenv("PORT");
    int port = env != null ? Integer.parseInt(env) : Integer.getInteger("port", 0);
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext("/burst", Main::burst);
    server.createContext("/health", exchange -> answer(exchange, 200, "{\"ok\":true}"));
    server.start();
    System.out.println("listening on port " + server.getAddress().getPort());
    System.out.flush();
  }

  private static void burst(HttpExchange exchange) throws IOException {
    try {
      Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
      String client = query.getOrDefault("client", "jdk-sync");
      String url = query.get("url");
      int calls = Integer.parseInt(query.getOrDefault("calls", "10"));
      double perSecond = Double.parseDouble(query.getOrDefault("per-second", "10"));
      Burst.Outcome outcome = new Burst(Clients.named(client), url, calls, perSecond).run();
      answer(exchange, 200, outcome.toJson());
    } catch (RuntimeException | InterruptedException e) {
      answer(exchange, 400, "{\"error\":\"" + String.valueOf(e).replace("\"", "'") + "\"}");
    }
  }

  static Map<String, String> query(String raw) {
    Map<String, String> out = new LinkedHashMap<>();
    if (raw == null) {
      return out;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        out.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  private static void answer(HttpExchange exchange, int status, String json) throws IOException {
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
