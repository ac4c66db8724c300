package io.tollgate.instrumentation.outbound.jdkhttp;

import io.tollgate.outbound.OutboundCall;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.Locale;

/** A {@code java.net.http.HttpRequest} as the outbound rules see it. */
final class JdkHttpCall implements OutboundCall {

  private final HttpRequest request;
  private final URI uri;

  JdkHttpCall(HttpRequest request) {
    this.request = request;
    this.uri = request.uri();
  }

  @Override
  public String method() {
    return request.method().toUpperCase(Locale.ROOT);
  }

  @Override
  public String host() {
    String host = uri.getHost();
    if (host == null) {
      return "";
    }
    host = host.toLowerCase(Locale.ROOT);
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }

  @Override
  public int port() {
    int port = uri.getPort();
    if (port > 0) {
      return port;
    }
    return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
  }

  @Override
  public String path() {
    String path = uri.getRawPath();
    return path == null || path.isEmpty() ? "/" : path;
  }

  @Override
  public String header(String name) {
    return request.headers().firstValue(name).orElse(null);
  }
}
