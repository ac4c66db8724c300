package io.tollgate.testapps.outbound_spring5;

import io.tollgate.testapps.burst.BurstApp;

/**
 * An app whose work is calling a partner through Spring 5.3's {@code RestTemplate} ({@link
 * SpringClients}), on request of {@code GET /burst} ({@link BurstApp}). Run with and without the
 * agent, it shows what outbound rules change for Spring 5 users.
 */
public final class Main {

  private Main() {}

  public static void main(String[] args) throws Exception {
    BurstApp.serve("outbound-spring5", SpringClients.all());
  }
}
