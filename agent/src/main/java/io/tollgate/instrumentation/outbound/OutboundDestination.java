package io.tollgate.instrumentation.outbound;

import io.tollgate.outbound.OutboundCall;
import java.util.Locale;

/**
 * Where a call goes, in the form the outbound rules match on, whatever client it came from: the
 * method in upper case, the host in lower case without an IPv6 literal's brackets, the port (the
 * scheme's default when the URI gives none) and the path without query or fragment ({@code /} when
 * empty), and whether the thread sending it may wait its turn. Each client's call extends it and
 * reads the request's headers its own way.
 */
public abstract class OutboundDestination implements OutboundCall {

  private final String method;
  private final String host;
  private final int port;
  private final String path;
  /** Read on the thread that sends the call, where the destination is read. */
  private final boolean mayWait = !NonBlockingThreads.current();

  /**
   * @param scheme {@code http} or {@code https}, for the default port when {@code port} is not
   *     positive
   * @param path the request's path, perhaps with a query, perhaps empty or null
   */
  protected OutboundDestination(String method, String scheme, String host, int port, String path) {
    this.method = method == null ? "GET" : method.toUpperCase(Locale.ROOT);
    this.host = normalHost(host);
    this.port = port > 0 ? port : defaultPort(scheme);
    this.path = pathOnly(path);
  }

  @Override
  public final String method() {
    return method;
  }

  @Override
  public final String host() {
    return host;
  }

  @Override
  public final int port() {
    return port;
  }

  @Override
  public final String path() {
    return path;
  }

  /** False on a thread that must never be parked ({@link NonBlockingThreads}). */
  @Override
  public final boolean mayWait() {
    return mayWait;
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
