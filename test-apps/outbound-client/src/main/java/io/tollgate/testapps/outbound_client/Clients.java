package io.tollgate.testapps.outbound_client;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** The JDK's clients, each making one GET and giving its status (or throwing what it throws). */
final class Clients {

  /** One call: its status, or the exception the client threw (or failed its future with). */
  interface Client {
    CompletableFuture<Integer> call(String url);
  }

  private static final HttpClient JDK =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  private Clients() {}

  static Client named(String name) {
    switch (name) {
      case "jdk-sync":
        return Clients::jdkSync;
      case "jdk-async":
        return Clients::jdkAsync;
      case "urlconnection":
        return Clients::urlConnection;
      default:
        throw new IllegalArgumentException("unknown client " + name);
    }
  }

  private static HttpRequest request(String url) {
    return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).GET().build();
  }

  private static CompletableFuture<Integer> jdkSync(String url) {
    try {
      return CompletableFuture.completedFuture(
          JDK.send(request(url), HttpResponse.BodyHandlers.discarding()).statusCode());
    } catch (IOException | InterruptedException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private static CompletableFuture<Integer> jdkAsync(String url) {
    return JDK.sendAsync(request(url), HttpResponse.BodyHandlers.discarding())
        .thenApply(HttpResponse::statusCode);
  }

  private static CompletableFuture<Integer> urlConnection(String url) {
    HttpURLConnection connection = null;
    try {
      connection = (HttpURLConnection) URI.create(url).toURL().openConnection();
      connection.setConnectTimeout(10_000);
      connection.setReadTimeout(30_000);
      int status = connection.getResponseCode();
      InputStream body = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
      if (body != null) {
        try (InputStream in = body) {
          in.readAllBytes();
        }
      }
      return CompletableFuture.completedFuture(status);
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
  }
}
