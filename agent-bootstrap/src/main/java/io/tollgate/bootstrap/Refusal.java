package io.tollgate.bootstrap;

/**
 * Returned by the bridge to skip the intercepted method: the request was refused.
 *
 * <p>The woven entry point checks the answer with {@code instanceof Refusal} and returns at once
 * when it is one. For servlet and Spring entry points the response is already written
 * ({@link #WRITTEN}). Frameworks that answer with a value of their own (Jersey's
 * {@code ContainerResponse}) get it in {@link #frameworkResponse}, which the woven method returns,
 * so that the refusal goes through the framework's own response path.
 *
 * <p>Only a marker and that response: the refusal's status, headers and body are made by the
 * engine and written, or turned into the framework's response, by the framework's module before
 * this is returned, so nothing here repeats them.
 */
public final class Refusal {

  /** The refusal was written to the response already. */
  public static final Refusal WRITTEN = new Refusal(null);

  /** The refusal as the framework's own response object, where the framework returns one. */
  public final Object frameworkResponse;

  private Refusal(Object frameworkResponse) {
    this.frameworkResponse = frameworkResponse;
  }

  /** A refusal answered by the framework's own response object, which the woven method returns. */
  public static Refusal returning(Object frameworkResponse) {
    return new Refusal(frameworkResponse);
  }

  @Override
  public String toString() {
    return frameworkResponse == null ? "Refusal (written)" : "Refusal " + frameworkResponse;
  }
}
