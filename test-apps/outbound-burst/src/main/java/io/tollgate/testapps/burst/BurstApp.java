package io.tollgate.testapps.burst;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;

/**
 * An app whose work is calling a partner, on the JDK's {@code HttpServer} at loopback: {@code GET
 * /burst?client=NAME&url=URL&calls=N&per-second=R} makes N calls to URL at R a second with the
 * {@link PartnerCall} named NAME and answers how they went ({@link BurstReport}); {@code GET
 * /health} answers {@code {"ok":true}}. Its port: the environment's {@code PORT}, else {@code
 * -Dport}, else 8080 (0 for a free one). Once it serves it prints one line, {@code NAME listening
 * on port N}, which the integration tests wait for.
 */
public final class BurstApp {

  private BurstApp() {}

  /**
   * Serves {@code calls} (by the names {@code /burst} takes, in the order an unknown name's answer
   * lists them) until the JVM ends.
   */
  public static void serve(String appName, Map<String, PartnerCall> calls) throws IOException {
    String env = System.getenv("PORT");
    int port = env != null ? Integer.parseInt(env) : Integer.getInteger("port", 8080);
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
    // a thread per request: the three-instance tests burst at several apps, each burst a request
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext("/burst", new BurstHandler(new LinkedHashMap<>(calls)));
    server.createContext("/health", exchange -> BurstHandler.answer(exchange, 200, "{\"ok\":true}"));
    server.start();
    System.out.println(appName + " listening on port " + server.getAddress().getPort());
    System.out.flush();
  }
}
