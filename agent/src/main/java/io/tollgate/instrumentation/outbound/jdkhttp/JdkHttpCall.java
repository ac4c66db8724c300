package io.tollgate.instrumentation.outbound.jdkhttp;

import io.tollgate.instrumentation.outbound.OutboundDestination;
import java.net.URI;
import java.net.http.HttpRequest;

/** A {@code java.net.http.HttpRequest} as the outbound rules see it. */
final class JdkHttpCall extends OutboundDestination {

  private final HttpRequest request;

  JdkHttpCall(HttpRequest request) {
    this(request, request.uri());
  }

  private JdkHttpCall(HttpRequest request, URI uri) {
    super(request.method(), uri.getScheme(), uri.getHost(), uri.getPort(), uri.getRawPath());
    this.request = request;
  }

  @Override
  public String header(String name) {
    return request.headers().firstValue(name).orElse(null);
  }
}
