package io.tollgate.testapps.outbound_jaxrs;

import io.tollgate.testapps.burst.BurstApp;
import io.tollgate.testapps.burst.PartnerCall;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An app that calls a partner with the JAX-RS client API ({@link JaxRsCall}): {@code jaxrs}
 * ({@code request().get()}) and {@code jaxrs-async} ({@code request().async().get()}), on request
 * of {@code GET /burst} ({@link BurstApp}). One source for every implementation: each {@code
 * outbound-jaxrs-*} module builds it with its own on the class path (their APIs and service files
 * cannot share one), and names itself in its jar's manifest.
 */
public final class Main {

  private Main() {}

  public static void main(String[] args) throws Exception {
    Map<String, PartnerCall> calls = new LinkedHashMap<>();
    calls.put("jaxrs", PartnerCall.madeOnFirstUse(() -> new JaxRsCall(false)));
    calls.put("jaxrs-async", PartnerCall.madeOnFirstUse(() -> new JaxRsCall(true)));
    String name = Main.class.getPackage().getImplementationTitle();
    BurstApp.serve(name != null ? name : "outbound-jaxrs", calls);
  }
}
