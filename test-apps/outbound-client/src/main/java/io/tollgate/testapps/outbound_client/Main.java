package io.tollgate.testapps.outbound_client;

import io.tollgate.testapps.burst.BurstApp;
import java.io.IOException;

/**
 * An application that calls a partner with the JDK's own clients ({@code jdk-sync}, {@code
 * jdk-async}, {@code urlconnection}, see {@link Clients}), on request of {@code GET /burst}
 * ({@link BurstApp}).
 */
public final class Main {

  private Main() {}

  public static void main(String[] args) throws IOException {
    BurstApp.serve("outbound-client", Clients.all());
  }
}
