package io.tollgate.testapps.outbound_client;

import io.tollgate.testapps.burst.PartnerCall;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** The JDK's clients, each making one GET and giving its status (or throwing what it throws). */
final class Clients {

  private static final HttpClient JDK =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  private Clients() {}

  /** The calls a burst can make, by name. */
  static Map<String, PartnerCall> all() {
    Map<String, PartnerCall> calls = new LinkedHashMap<>();
    calls.put("jdk-sync", Clients::jdkSync);
    calls.put("jdk-async", Clients::jdkAsync);
    calls.put("urlconnection", Clients::urlConnection);
    return calls;
  }

  private static HttpRequest request(String url) {
    return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).GET().build();
  }

  private static int jdkSync(String url) throws IOException, InterruptedException {
    return JDK.send(request(url), HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  /** The future {@code sendAsync} returns, waited for by the burst's thread. */
  private static int jdkAsync(String url) throws Exception {
    return JDK.sendAsync(request(url), HttpResponse.BodyHandlers.discarding())
        .thenApply(HttpResponse::statusCode)
        .get();
  }

  private static int urlConnection(String url) throws IOException {
    HttpURLConnection connection = (HttpURLConnection) URI.create(url).toURL().openConnection();
    connection.setConnectTimeout(10_000);
    connection.setReadTimeout(30_000);
    int status = connection.getResponseCode();
    InputStream body = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
    if (body != null) {
      try (InputStream in = body) {
        in.readAllBytes();
      }
    }
    return status;
  }
}
