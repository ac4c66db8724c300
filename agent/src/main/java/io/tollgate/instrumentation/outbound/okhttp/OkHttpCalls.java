package io.tollgate.instrumentation.outbound.okhttp;

/**
 * The OkHttp (3, 4 and 5) methods the module calls, implemented for each copy it meets by {@link
 * io.tollgate.instrumentation.DirectCalls}. Public only because the generated class, in a class
 * loader of its own, implements it.
 */
public interface OkHttpCalls {

  /** {@code okhttp3.Call.request()}: the app's request, before the interceptors. */
  Object request(Object call);

  /** {@code okhttp3.Request.method()}. */
  String method(Object request);

  /** {@code okhttp3.Request.url()}. */
  Object url(Object request);

  /** {@code okhttp3.Request.header(String)}. */
  String requestHeader(Object request, String name);

  /** {@code okhttp3.HttpUrl.scheme()}. */
  String scheme(Object url);

  /** {@code okhttp3.HttpUrl.host()}: without brackets. */
  String host(Object url);

  /** {@code okhttp3.HttpUrl.port()}: the scheme's default when the URL gives none. */
  int port(Object url);

  /** {@code okhttp3.HttpUrl.encodedPath()}: at least {@code /}. */
  String encodedPath(Object url);

  /** {@code okhttp3.Response.code()}. */
  int code(Object response);

  /** {@code okhttp3.Response.header(String)}. */
  String responseHeader(Object response, String name);
}
