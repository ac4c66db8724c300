package io.tollgate.testapps.outbound_spring5;

import io.tollgate.testapps.burst.PartnerCall;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.http.impl.client.HttpClients;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;

/**
 * Spring 5.3's {@code RestTemplate} by name, on the HTTP client under it, made as Spring 5 users
 * make it: {@code resttemplate-apache4} on {@code HttpComponentsClientHttpRequestFactory} (Apache
 * HttpClient 4.5, with room for a burst where its defaults would queue it at 2 a route) and {@code
 * resttemplate-simple} on {@code SimpleClientHttpRequestFactory} ({@code HttpURLConnection}, what
 * {@code new RestTemplate()} uses).
 */
final class SpringClients {

  private SpringClients() {}

  static Map<String, PartnerCall> all() {
    Map<String, PartnerCall> clients = new LinkedHashMap<>();
    add(clients, "resttemplate-apache4", () -> new RestTemplateClient(
        new HttpComponentsClientHttpRequestFactory(
            HttpClients.custom().setMaxConnPerRoute(200).setMaxConnTotal(200).build())));
    add(clients, "resttemplate-simple",
        () -> new RestTemplateClient(new SimpleClientHttpRequestFactory()));
    return clients;
  }

  /** Each client is made on its first call, as an app makes its client once and keeps it. */
  private static void add(Map<String, PartnerCall> clients, String name,
      Supplier<PartnerCall> maker) {
    clients.put(name, PartnerCall.madeOnFirstUse(maker));
  }
}
