package io.tollgate.instrumentation.grizzly;

import io.tollgate.instrumentation.DirectCalls;

/**
 * Reads the client's address from Grizzly's own request ({@code
 * org.glassfish.grizzly.http.server.Request}), which Jersey's request object does not carry,
 * through the {@link GrizzlyCalls} written once per request class.
 */
public final class GrizzlyRequests {

  static final String REQUEST = "org.glassfish.grizzly.http.server.Request";
  static final String RESPONSE = "org.glassfish.grizzly.http.server.Response";

  private static final ClassValue<GrizzlyCalls> CALLS =
      new ClassValue<GrizzlyCalls>() {
        @Override
        protected GrizzlyCalls computeValue(Class<?> requestClass) {
          try {
            // Grizzly's public class, not the request's own (which may be a hidden subclass)
            return DirectCalls.implement(
                GrizzlyCalls.class,
                calls(),
                "io.tollgate.generated.GrizzlyCalls",
                requestClass.getClassLoader());
          } catch (ReflectiveOperationException | LinkageError e) {
            throw new IllegalStateException(
                "no " + REQUEST + ".getRemoteAddr() for " + requestClass + ": " + e, e);
          }
        }
      };

  private GrizzlyRequests() {}

  private static java.util.Map<String, String> calls() {
    java.util.Map<String, String> calls = new java.util.HashMap<>();
    calls.put("getRemoteAddr", REQUEST + "#getRemoteAddr");
    calls.put("getResponse", REQUEST + "#getResponse");
    calls.put("getStatus", RESPONSE + "#getStatus");
    return calls;
  }

  /** The status of the request's response, or -1 when it cannot be read. */
  public static int responseStatus(Object request) {
    try {
      GrizzlyCalls calls = CALLS.get(request.getClass());
      return calls.getStatus(calls.getResponse(request));
    } catch (RuntimeException e) {
      return -1;
    }
  }

  /** {@code request.getRemoteAddr()}. */
  public static String remoteAddress(Object request) {
    return CALLS.get(request.getClass()).getRemoteAddr(request);
  }
}
