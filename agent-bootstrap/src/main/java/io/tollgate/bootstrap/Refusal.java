package io.tollgate.bootstrap;

/**
 * Returned by the bridge to skip the intercepted method: the request was refused.
 *
 * <p>The woven entry point checks the answer with {@code instanceof Refusal} and returns at once
 * when it is one. For servlet and Spring entry points the response is already written
 * ({@link #WRITTEN}). Frameworks that answer with a value of their own (Jersey's
 * {@code ContainerResponse}) get it in {@link #frameworkResponse}, which the woven method returns,
 * so that the refusal goes through the framework's own response path.
 */
public final class Refusal {

  /** The refusal was written to the response already. */
  public static final Refusal WRITTEN = new Refusal(0, new String[0], null, new byte[0]);

  public final int status;
  /** Header names and values, alternating. */
  public final String[] headers;
  public final String contentType;
  public final byte[] body;
  /** The refusal as the framework's own response object, where the framework returns one. */
  public final Object frameworkResponse;

  public Refusal(int status, String[] headers, String contentType, byte[] body) {
    this(status, headers, contentType, body, null);
  }

  public Refusal(
      int status, String[] headers, String contentType, byte[] body, Object frameworkResponse) {
    this.status = status;
    this.headers = headers;
    this.contentType = contentType;
    this.body = body;
    this.frameworkResponse = frameworkResponse;
  }

  /** A refusal answered by the framework's own response object, which the woven method returns. */
  public static Refusal returning(Object frameworkResponse) {
    return new Refusal(0, new String[0], null, new byte[0], frameworkResponse);
  }

  @Override
  public String toString() {
    return "Refusal " + status;
  }
}
