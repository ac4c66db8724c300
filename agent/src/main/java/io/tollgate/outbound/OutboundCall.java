package io.tollgate.outbound;

/**
 * One call the app makes to another service, as a client module sees it just before the client
 * sends it: what outbound rules match and key on. Each HTTP client library (the JDK's, Apache's,
 * OkHttp...) has its own small adapter under {@code instrumentation/}; the engine knows none of
 * them.
 */
public interface OutboundCall {

  /** The request method, upper case: {@code GET}. */
  String method();

  /** The destination host as the app wrote it, lower case, without brackets or port. */
  String host();

  /** The destination port, the scheme's default when the URI gives none. */
  int port();

  /** The request path, without the query; {@code /} when empty. */
  String path();

  /** A request header the app set, or null. */
  String header(String name);

  /**
   * Whether the call may be held on the thread that sends it. False on a thread that must never
   * be parked (an event loop, which serves every connection of its own): a call there that is over
   * its limit fails fast, as with {@code on-limit: fail}, instead of waiting its turn.
   */
  default boolean mayWait() {
    return true;
  }
}
