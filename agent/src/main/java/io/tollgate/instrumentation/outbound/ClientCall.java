package io.tollgate.instrumentation.outbound;

/**
 * A call as a client module read it: its destination, read once, and its request headers, read
 * from the client's request only when a rule keys on one.
 */
public final class ClientCall extends OutboundDestination {

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
    super(method, scheme, host, port, path);
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
  public String header(String name) {
    return client.requestHeader(this, name);
  }
}
