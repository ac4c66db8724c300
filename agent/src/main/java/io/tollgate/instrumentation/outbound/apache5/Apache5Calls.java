package io.tollgate.instrumentation.outbound.apache5;

/**
 * The Apache HttpClient 5 (HttpCore 5) methods the module calls, implemented for each copy it meets
 * by {@link io.tollgate.instrumentation.DirectCalls}. Public only because the generated class, in
 * a class loader of its own, implements it.
 */
public interface Apache5Calls {

  /** {@code org.apache.hc.core5.http.HttpRequest.getMethod()}. */
  String getMethod(Object request);

  /** {@code HttpRequest.getPath()}: the path and query. */
  String getPath(Object request);

  /** {@code HttpRequest.getScheme()}. */
  String getScheme(Object request);

  /** {@code HttpRequest.getAuthority()}, or null. */
  Object getAuthority(Object request);

  /** {@code org.apache.hc.core5.net.URIAuthority.getHostName()}. */
  String authorityHost(Object authority);

  /** {@code URIAuthority.getPort()}: -1 when none. */
  int authorityPort(Object authority);

  /** {@code org.apache.hc.core5.http.HttpHost.getHostName()}. */
  String getHostName(Object host);

  /** {@code HttpHost.getPort()}: -1 when none. */
  int getPort(Object host);

  /** {@code HttpHost.getSchemeName()}. */
  String getSchemeName(Object host);

  /** {@code org.apache.hc.core5.http.MessageHeaders.getFirstHeader(String)}. */
  Object getFirstHeader(Object message, String name);

  /** {@code org.apache.hc.core5.http.NameValuePair.getValue()}, of a {@code Header}. */
  String getValue(Object header);

  /** {@code org.apache.hc.core5.http.HttpResponse.getCode()}. */
  int getCode(Object response);

  /** {@code org.apache.hc.core5.http.nio.AsyncResponseConsumer.failed(Exception)}. */
  void consumerFailed(Object consumer, Exception cause);
}
