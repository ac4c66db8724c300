package io.tollgate.testapps.outbound_spring6;

import io.tollgate.testapps.burst.BurstApp;

/**
 * An app whose work is calling a partner through Spring 6.2's clients ({@link SpringClients}), on
 * request of {@code GET /burst} ({@link BurstApp}). Run with and without the agent, it shows what
 * outbound rules change for Spring users.
 */
public final class Main {

  private Main() {}

  public static void main(String[] args) throws Exception {
    BurstApp.serve("outbound-spring6", SpringClients.all());
  }
}
