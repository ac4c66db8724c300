package io.tollgate.instrumentation.jaxrs;

/**
 * The quota headers of a request Jersey serves, kept from the decision until the resource method
 * has returned its {@code ContainerResponse}, which they are then set on.
 */
public final class JerseyResponseHeaders {

  private final JerseyCalls calls;
  /** Names and values, alternating. */
  private final String[] headers;

  public JerseyResponseHeaders(JerseyCalls calls, String[] headers) {
    this.calls = calls;
    this.headers = headers;
  }

  /** Sets the headers on {@code containerResponse}, each replacing any of its name. */
  public void setOn(Object containerResponse) {
    Object map = calls.getHeaders(containerResponse);
    for (int i = 0; i + 1 < headers.length; i += 2) {
      calls.putSingle(map, headers[i], headers[i + 1]);
    }
  }
}
