package io.tollgate.testapps.outbound;

import io.tollgate.testapps.burst.BurstApp;

/**
 * An app whose work is calling a partner with each HTTP client library ({@link Clients}), on
 * request of {@code GET /burst} ({@link BurstApp}). Run with and without the agent, it shows what
 * outbound rules change.
 */
public final class Main {

  private Main() {}

  public static void main(String[] args) throws Exception {
    BurstApp.serve("outbound app", new Clients().all());
  }
}
