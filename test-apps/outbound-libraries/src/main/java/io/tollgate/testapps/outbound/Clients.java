package io.tollgate.testapps.outbound;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The clients a burst can use, by name, each made once (as an app keeps its client) on first use.
 * Made by class name: the same sources build {@code outbound-okhttp5}, which has OkHttp 5 and no
 * Apache client (two OkHttp majors cannot share a class path).
 */
final class Clients {

  /** One way of calling a URL: answers the partner's status, its body read and the call closed. */
  interface Client {
    int call(String url) throws Exception;
  }

  private final Map<String, Supplier<Client>> makers = new LinkedHashMap<>();
  private final Map<String, Client> made = new LinkedHashMap<>();

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
    makers.put(name, () -> {
      try {
        return enqueued.length == 0
            ? (Client) type.getDeclaredConstructor().newInstance()
            : (Client) type.getDeclaredConstructor(boolean.class).newInstance(enqueued[0]);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("cannot make the client " + name, e);
      }
    });
  }

  synchronized Client named(String name) {
    Supplier<Client> maker = makers.get(name);
    return maker == null ? null : made.computeIfAbsent(name, unused -> maker.get());
  }

  String names() {
    return String.join(", ", makers.keySet());
  }
}
