package io.tollgate.instrumentation.outbound.apache4;

/**
 * The Apache HttpClient 4 (HttpCore 4) methods the module calls, implemented for each copy it meets
 * by {@link io.tollgate.instrumentation.DirectCalls}. Public only because the generated class, in
 * a class loader of its own, implements it.
 */
public interface Apache4Calls {

  /** {@code org.apache.http.HttpRequest.getRequestLine()}. */
  Object getRequestLine(Object request);

  /** {@code org.apache.http.RequestLine.getMethod()}. */
  String getMethod(Object requestLine);

  /** {@code RequestLine.getUri()}: absolute for the {@code HttpGet}s apps make, else a path. */
  String getUri(Object requestLine);

  /** {@code org.apache.http.HttpHost.getHostName()}. */
  String getHostName(Object host);

  /** {@code HttpHost.getPort()}: -1 when the URI gave none. */
  int getPort(Object host);

  /** {@code HttpHost.getSchemeName()}. */
  String getSchemeName(Object host);

  /** {@code org.apache.http.HttpMessage.getFirstHeader(String)}, of a request or a response. */
  Object getFirstHeader(Object message, String name);

  /** {@code org.apache.http.Header.getValue()}. */
  String getValue(Object header);

  /** {@code org.apache.http.HttpResponse.getStatusLine()}. */
  Object getStatusLine(Object response);

  /** {@code org.apache.http.StatusLine.getStatusCode()}. */
  int getStatusCode(Object statusLine);
}
