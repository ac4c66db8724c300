package io.tollgate.instrumentation.outbound;

import io.tollgate.outbound.OutboundCall;
import java.util.Locale;

/**
 * A call as a client module read it: its destination, read once, and its request headers, read
 * from the client's request only when a rule keys on one.
 */
public final class ClientCall implements OutboundCall {

  private final String method;
  private final String host;
  private final int port;
  private final String path;
  private final OutboundClient client;
  /** The client's generated calls the call was read with, to read the rest with the same. */
  private final Object calls;
  private final Object request;

  /**
   * @param scheme {@code http} or {@code https}, for the default port when {@code port} is -1
   * @param path the request's path, perhaps with a query, perhaps empty
   */
  public ClientCall(OutboundClient client, Object calls, Object request, String method,
      String scheme, String host, int port, String path) {
    this.method = method == null ? "GET" : method.toUpperCase(Locale.ROOT);
    this.host = normalHost(host);
    this.port = port >= 0 ? port : defaultPort(scheme);
    this.path = pathOnly(path);
    this.client = client;
    this.calls = calls;
    this.request = request;
  }

  /** The client's generated calls this call was read with. */
  @SuppressWarnings("unchecked")
  public <T> T calls() {
    return (T) calls;
  }

  /** The client's own request. */
  public Object request() {
    return request;
  }

  @Override
  public String method() {
    return method;
  }

  @Override
  public String host() {
    return host;
  }

  @Override
  public int port() {
    return port;
  }

  @Override
  public String path() {
    return path;
  }

  @Override
  public String header(String name) {
    return client.requestHeader(this, name);
  }

  static int defaultPort(String scheme) {
    return "https".equalsIgnoreCase(scheme) ? 443 : 80;
  }

  static String normalHost(String host) {
    if (host == null) {
      return "";
    }
    String lower = host.toLowerCase(Locale.ROOT);
    return lower.startsWith("[") && lower.endsWith("]")
        ? lower.substring(1, lower.length() - 1)
        : lower;
  }

  /** The path of a request target without its query or fragment; {@code /} when empty. */
  static String pathOnly(String path) {
    if (path == null) {
      return "/";
    }
    int end = path.length();
    int query = path.indexOf('?');
    if (query >= 0) {
      end = query;
    }
    int fragment = path.indexOf('#');
    if (fragment >= 0 && fragment < end) {
      end = fragment;
    }
    String only = path.substring(0, end);
    return only.isEmpty() ? "/" : only;
  }

  @Override
  public String toString() {
    return method + " " + host + ":" + port + path;
  }
}
