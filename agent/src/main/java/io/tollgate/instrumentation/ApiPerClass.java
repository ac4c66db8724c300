package io.tollgate.instrumentation;

import io.tollgate.logging.AgentLog;



/**
 * What the agent found, once per class, of a framework's API (the servlet API a request class
 * implements, the Jersey or RESTEasy an invoker belongs to...), kept in a {@link ClassValue} so that
 * a redeployed application's classes can be unloaded.
 *
 * <p>A class whose API does not match (an unexpected version, a missing method) is remembered as
 * such too, and logged once: {@link #get} then answers null at the cost of a map read, and the
 * request passes uncounted. A {@code ClassValue} whose {@code computeValue} throws caches nothing,
 * so without this every request would redo the reflection and class generation that failed, and
 * report it.
 */
public abstract class ApiPerClass<T> {

  /** The cached answer for a class whose API did not match. */
  private static final Object NOT_MATCHED = new Object();

  /** What is looked for, for the log: "the servlet API", "Jersey". */
  private final String what;

  private final ClassValue<Object> byClass =
      new ClassValue<Object>() {
        @Override
        protected Object computeValue(Class<?> type) {
          try {
            T api = match(type);
            return api == null ? NOT_MATCHED : api;
          } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            AgentLog.warn("cannot use " + what + " of " + type.getName() + " (class loader "
                + type.getClassLoader() + "): " + e + "; its requests pass without being counted");
            return NOT_MATCHED;
          }
        }
      };

  /** Matches nothing: made by {@link #loadClasses}, for its classes only. */
  private static final class NoApi extends ApiPerClass<Object> {
    NoApi() {
      super("no API");
    }

    @Override
    protected Object match(Class<?> type) {
      return null;
    }
  }

  /**
   * Loads this class and its cache's on the calling thread: the agent's start-up thread calls it,
   * so that the application's first request, whose framework module reads its API here, does not.
   */
  public static void loadClasses() {
    new NoApi().get(ApiPerClass.class);
  }

  protected ApiPerClass(String what) {
    this.what = what;
  }

  /** The API of {@code type}, or null when it has none or it did not match. */
  @SuppressWarnings("unchecked")
  public final T get(Class<?> type) {
    Object api = byClass.get(type);
    return api == NOT_MATCHED ? null : (T) api;
  }

  /**
   * The API of {@code type}; null when {@code type} has none (not an HTTP request, say). Called
   * once per class; what it throws is logged once and remembered as no match.
   */
  protected abstract T match(Class<?> type) throws ReflectiveOperationException;
}
