package io.tollgate.testapps.outbound;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;

/**
 * An app whose work is calling a partner: {@code GET /burst?client=NAME&url=URL&calls=N&per-second=R}
 * makes N calls to URL at R a second with the client NAME ({@link Clients}), and answers how they
 * went ({@link Burst}). Run with and without the agent, it shows what outbound rules change.
 */
public final class Main {

  private Main() {}

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(System.getenv().getOrDefault("PORT", "8080"));
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
    server.setExecutor(Executors.newFixedThreadPool(4));
    server.createContext("/burst", new BurstHandler(new Clients()));
    server.start();
    System.out.println("outbound app listening on port " + server.getAddress().getPort());
  }
}
