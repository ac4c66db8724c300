package io.tollgate.testapps.outbound_spring6;

import java.net.http.HttpClient;
import io.tollgate.testapps.burst.PartnerCall;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import okhttp3.OkHttpClient;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.OkHttp3ClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.http.client.reactive.HttpComponentsClientHttpConnector;
import org.springframework.http.client.reactive.JdkClientHttpConnector;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import reactor.core.scheduler.Schedulers;

/**
 * Spring 6.2's clients by name, each on the HTTP client under it, made as Spring users make them
 * (each client library with room for a burst where its defaults would queue it):
 *
 * <ul>
 *   <li>{@code resttemplate-jdk}, {@code resttemplate-apache5}, {@code resttemplate-okhttp}:
 *       {@code RestTemplate} on {@code JdkClientHttpRequestFactory}, {@code
 *       HttpComponentsClientHttpRequestFactory} (Apache HttpClient 5) and {@code
 *       OkHttp3ClientHttpRequestFactory}, and {@code resttemplate-simple} on {@code
 *       SimpleClientHttpRequestFactory} ({@code HttpURLConnection}, what {@code new
 *       RestTemplate()} uses);
 *   <li>{@code restclient-jdk}, {@code restclient-apache5}, {@code restclient-okhttp}: {@code
 *       RestClient} on the same;
 *   <li>{@code webclient-jdk}, {@code webclient-apache5}, {@code webclient-netty}: {@code
 *       WebClient} on {@code JdkClientHttpConnector}, {@code HttpComponentsClientHttpConnector}
 *       (Apache HttpClient 5 async) and its default, {@code ReactorClientHttpConnector};
 *   <li>{@code webclient-jdk-parallel}, {@code webclient-apache5-parallel}: the same, subscribed
 *       on Reactor's parallel scheduler, whose threads must never block.
 * </ul>
 */
final class SpringClients {

  private SpringClients() {}

  static Map<String, PartnerCall> all() {
    Map<String, PartnerCall> clients = new LinkedHashMap<>();
    add(clients, "resttemplate-jdk", () -> new RestTemplateClient(jdkFactory()));
    add(clients, "resttemplate-apache5", () -> new RestTemplateClient(apache5Factory()));
    add(clients, "resttemplate-okhttp", () -> new RestTemplateClient(okHttpFactory()));
    add(clients, "resttemplate-simple",
        () -> new RestTemplateClient(new SimpleClientHttpRequestFactory()));
    add(clients, "restclient-jdk", () -> new RestClientClient(jdkFactory()));
    add(clients, "restclient-apache5", () -> new RestClientClient(apache5Factory()));
    add(clients, "restclient-okhttp", () -> new RestClientClient(okHttpFactory()));
    add(clients, "webclient-jdk",
        () -> new WebClientClient(new JdkClientHttpConnector(HttpClient.newHttpClient()), null));
    add(clients, "webclient-apache5",
        () -> new WebClientClient(new HttpComponentsClientHttpConnector(apache5Async()), null));
    add(clients, "webclient-netty",
        () -> new WebClientClient(new ReactorClientHttpConnector(), null));
    add(clients, "webclient-jdk-parallel", () -> new WebClientClient(
        new JdkClientHttpConnector(HttpClient.newHttpClient()), Schedulers.parallel()));
    add(clients, "webclient-apache5-parallel", () -> new WebClientClient(
        new HttpComponentsClientHttpConnector(apache5Async()), Schedulers.parallel()));
    return clients;
  }

  /** Each client is made on its first call, as an app makes its client once and keeps it. */
  private static void add(Map<String, PartnerCall> clients, String name,
      Supplier<PartnerCall> maker) {
    clients.put(name, PartnerCall.madeOnFirstUse(maker));
  }

  private static ClientHttpRequestFactory jdkFactory() {
    return new JdkClientHttpRequestFactory(HttpClient.newHttpClient());
  }

  private static ClientHttpRequestFactory apache5Factory() {
    CloseableHttpClient client = HttpClients.custom()
        .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
            .setMaxConnPerRoute(200).setMaxConnTotal(200).build())
        .build();
    return new HttpComponentsClientHttpRequestFactory(client);
  }

  @SuppressWarnings("deprecation") // deprecated in Spring 6.1, still in apps that have OkHttp
  private static ClientHttpRequestFactory okHttpFactory() {
    return new OkHttp3ClientHttpRequestFactory(new OkHttpClient());
  }

  /** Started by the connector. */
  private static CloseableHttpAsyncClient apache5Async() {
    return HttpAsyncClients.custom()
        .setConnectionManager(PoolingAsyncClientConnectionManagerBuilder.create()
            .setMaxConnPerRoute(200).setMaxConnTotal(200).build())
        .build();
  }
}
