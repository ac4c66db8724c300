package io.tollgate.instrumentation.servlet;

import io.tollgate.instrumentation.DirectCalls;
import java.lang.invoke.MethodHandle;
import java.util.HashMap;
import java.util.Map;

/**
 * Marks on Tomcat's own requests (its connector request, which its host valve passes, or the
 * {@code RequestFacade} over it, which filters and servlets get unwrapped) kept as notes of the
 * connector request ({@code Request.setNote}) instead of request attributes.
 *
 * <p>Why: Tomcat's {@code setAttribute} tells the context's attribute listeners of every
 * attribute set (it copies their array to do so, listeners or not), which made the agent's mark
 * about half of what the engine cost an allowed request beyond a hand-written filter
 * (BENCHMARKS.md, section 6). A note is a map entry that only Tomcat's internals read, that no
 * listener hears of and the application never sees, and that Tomcat clears when it recycles the
 * request, as it clears its attributes: the same lifetime as the attribute had.
 *
 * <p>Only where every piece is as expected (Tomcat's classes with these members); otherwise the
 * caller marks the request with an attribute.
 */
final class TomcatRequestNotes {

  private static final String REQUEST = "org.apache.catalina.connector.Request#";

  /** The facade's {@code request} field (protected, so read through a handle); null for the
   * connector request itself, which needs none. */
  private final MethodHandle facadeRequest;
  private final TomcatNoteCalls calls;

  private TomcatRequestNotes(Class<?> requestClass) throws ReflectiveOperationException {
    facadeRequest = TomcatRequestClasses.connectorRequestOf(requestClass);
    Map<String, String> targets = new HashMap<>();
    targets.put("getNote", REQUEST + "getNote");
    targets.put("setNote", REQUEST + "setNote");
    calls =
        DirectCalls.implement(TomcatNoteCalls.class, targets,
            "io.tollgate.generated.TomcatNoteCalls", requestClass.getClassLoader());
  }

  /**
   * For Tomcat's request facade class or its connector request class; null for any other class,
   * or a Tomcat it does not know.
   */
  static TomcatRequestNotes forRequestClass(Class<?> requestClass) {
    if (!TomcatRequestClasses.isTomcatRequest(requestClass)) {
      return null;
    }
    try {
      return new TomcatRequestNotes(requestClass);
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null;
    }
  }

  /**
   * Notes {@code name} on {@code request} unless it is noted already: {@link Boolean#TRUE} when
   * this noted it, {@link Boolean#FALSE} when it was noted before, null when it cannot be read
   * this way (a facade whose request is gone; the caller uses an attribute).
   */
  Boolean noteFirst(Object request, String name) {
    Object connector;
    try {
      connector = facadeRequest == null ? request : facadeRequest.invokeExact(request);
    } catch (Throwable e) {
      return null;
    }
    if (connector == null) {
      return null;
    }
    if (calls.getNote(connector, name) != null) {
      return Boolean.FALSE;
    }
    calls.setNote(connector, name, Boolean.TRUE);
    return Boolean.TRUE;
  }
}
