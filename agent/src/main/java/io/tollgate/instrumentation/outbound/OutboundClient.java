package io.tollgate.instrumentation.outbound;

/**
 * One HTTP client library as its woven send passes it: reads the call about to be sent, and the
 * partner's response, from the client's own objects (through calls generated in the app's class
 * loader, so the agent references no client class).
 */
public interface OutboundClient {

  /**
   * The call the woven send is about to make, from what its start passed the bridge; null when the
   * client's API did not match (logged once), and the call goes out undecided.
   */
  ClientCall callOf(Object first, Object second);

  /** A header the app set on the client's request of {@code call}, or null. */
  String requestHeader(ClientCall call, String name);

  /** The status of the client's {@code response} to {@code call}. */
  int status(ClientCall call, Object response);

  /** A header of the client's {@code response} to {@code call}, or null. */
  String responseHeader(ClientCall call, Object response, String name);
}
