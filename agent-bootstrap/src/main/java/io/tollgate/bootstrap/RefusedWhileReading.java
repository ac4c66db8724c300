package io.tollgate.bootstrap;

/**
 * Thrown into the application's read of its request parameters or body when the request is
 * refused right there (by a rule keyed by a form field, decided when the application first reads
 * it): the 429 is written already, and the application must not go on as if the request passed.
 * The first servlet or container entry point it unwinds to (the servlet's {@code service}, or the
 * filter that read) catches it, also when the application wrapped it in its own exception, and
 * returns normally, the response being complete.
 *
 * <p>An {@code Error}, so that the application's {@code catch (Exception e)} does not swallow it
 * and carry on; one shared instance without a stack trace, as it says nothing about a failure.
 */
public final class RefusedWhileReading extends Error {

  private static final long serialVersionUID = 1L;

  /** The only instance. */
  public static final RefusedWhileReading INSTANCE = new RefusedWhileReading();

  private RefusedWhileReading() {
    super("the request was refused by Tollgate while the application read its parameters;"
        + " its response is written", null, false, false);
  }

  /** Whether {@code thrown}, or an exception it was caused by, is the refusal. */
  public static boolean isIn(Throwable thrown) {
    for (int depth = 0; thrown != null && depth < 16; depth++) {
      if (thrown == INSTANCE) {
        return true;
      }
      thrown = thrown.getCause();
    }
    return false;
  }
}
