package io.tollgate.instrumentation;

import io.tollgate.logging.AgentLog;
import java.lang.ref.WeakReference;



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

  /**
   * The first two classes looked up and their answers, each in one object: nearly every request
   * of a server is of one or two classes (Tomcat's connector request at its host valve, its
   * facade at the filters and servlet), read here from this object and one more, where the {@code
   * ClassValue} reads the class's map, its cache array, an entry and the {@code ClassValue}
   * itself, each a cache line of its own that the network work between two requests has evicted.
   * Kept once set, so that a request of a third class allocates nothing. Both the class and its
   * answer are held weakly: an answer often refers to its class (the servlet API's calls are a
   * class generated in the request class's loader), so a strong one here would keep a redeployed
   * application's class loader for ever; the {@code ClassValue} keeps the answer for as long as the
   * class lives, and a slot whose class was unloaded is filled again.
   */
  private volatile Lookup firstSeen;
  private volatile Lookup secondSeen;

  /** A class and what {@link #byClass} answered for it, both weakly; never changed once made. */
  private static final class Lookup extends WeakReference<Class<?>> {
    final WeakReference<Object> api;

    Lookup(Class<?> type, Object api) {
      super(type);
      this.api = new WeakReference<>(api);
    }
  }

  /** The API of {@code type}, or null when it has none or it did not match. */
  @SuppressWarnings("unchecked")
  public final T get(Class<?> type) {
    Lookup seen = firstSeen;
    if (seen == null || seen.get() != type) {
      seen = secondSeen;
      if (seen == null || seen.get() != type) {
        return (T) unwrap(lookUp(type));
      }
    }
    // the class is alive (it is the caller's), so its ClassValue still holds the answer
    Object api = seen.api.get();
    return (T) unwrap(api != null ? api : byClass.get(type));
  }

  /** The class value's answer, kept in a free slot (racing threads may each fill one). */
  private Object lookUp(Class<?> type) {
    Object api = byClass.get(type);
    Lookup first = firstSeen;
    if (first == null || first.get() == null) {
      firstSeen = new Lookup(type, api);
    } else {
      Lookup second = secondSeen;
      if (second == null || second.get() == null) {
        secondSeen = new Lookup(type, api);
      }
    }
    return api;
  }

  private static Object unwrap(Object api) {
    return api == NOT_MATCHED ? null : api;
  }

  /**
   * The API of {@code type}; null when {@code type} has none (not an HTTP request, say). Called
   * once per class; what it throws is logged once and remembered as no match.
   */
  protected abstract T match(Class<?> type) throws ReflectiveOperationException;
}
