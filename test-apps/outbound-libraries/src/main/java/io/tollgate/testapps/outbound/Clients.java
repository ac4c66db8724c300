package io.tollgate.testapps.outbound;

import io.tollgate.testapps.burst.PartnerCall;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The calls a burst can make, by name, each client made once (as an app keeps its client) on
 * first use. Made by class name: the same sources build {@code outbound-okhttp5}, which has OkHttp
 * 5 and no Apache client (two OkHttp majors cannot share a class path): a client whose class is
 * not in the app is not offered.
 */
final class Clients {

  private final Map<String, PartnerCall> calls = new LinkedHashMap<>();

  Clients() {
    add("apache4", "Apache4Client");
    add("apache5", "Apache5Client");
    add("apache5-async", "Apache5AsyncClient");
    add("okhttp", "OkHttpClients", false);
    add("okhttp-async", "OkHttpClients", true);
  }

  /** The client {@code simpleName} of this package, made with {@code enqueued} if given. */
  private void add(String name, String simpleName, Boolean... enqueued) {
    Class<?> type;
    try {
      type = Class.forName(Clients.class.getPackageName() + "." + simpleName);
    } catch (ClassNotFoundException notInThisApp) {
      return;
    }
    calls.put(name, PartnerCall.madeOnFirstUse(() -> {
      try {
        return enqueued.length == 0
            ? (PartnerCall) type.getDeclaredConstructor().newInstance()
            : (PartnerCall) type.getDeclaredConstructor(boolean.class).newInstance(enqueued[0]);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("cannot make the client " + name, e);
      }
    }));
  }

  Map<String, PartnerCall> all() {
    return calls;
  }
}
