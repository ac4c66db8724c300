package io.tollgate.testapps.outbound;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The clients a burst can use, by name, each made once (as an app keeps its client) on first use.
 */
final class Clients {

  /** One way of calling a URL: answers the partner's status, its body read and the call closed. */
  interface Client {
    int call(String url) throws Exception;
  }

  private final Map<String, Supplier<Client>> makers = new LinkedHashMap<>();
  private final Map<String, Client> made = new LinkedHashMap<>();

  Clients() {
    makers.put("apache4", Apache4Client::new);
    makers.put("apache5", Apache5Client::new);
    makers.put("apache5-async", Apache5AsyncClient::new);
    makers.put("okhttp", () -> new OkHttpClients(false));
    makers.put("okhttp-async", () -> new OkHttpClients(true));
  }

  synchronized Client named(String name) {
    Supplier<Client> maker = makers.get(name);
    return maker == null ? null : made.computeIfAbsent(name, unused -> maker.get());
  }

  String names() {
    return String.join(", ", makers.keySet());
  }
}
