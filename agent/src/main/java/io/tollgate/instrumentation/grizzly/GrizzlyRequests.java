package io.tollgate.instrumentation.grizzly;

import io.tollgate.instrumentation.ApiPerClass;
import io.tollgate.instrumentation.DirectCalls;

/**
 * Reads the client's address from Grizzly's own request ({@code
 * org.glassfish.grizzly.http.server.Request}), which Jersey's request object does not carry,
 * through the {@link GrizzlyCalls} written once per request class.
 */
public final class GrizzlyRequests {

  static final String REQUEST = "org.glassfish.grizzly.http.server.Request";
  static final String RESPONSE = "org.glassfish.grizzly.http.server.Response";

  private static final ApiPerClass<GrizzlyCalls> CALLS =
      new ApiPerClass<GrizzlyCalls>("Grizzly's " + REQUEST) {
        @Override
        protected GrizzlyCalls match(Class<?> requestClass) throws ReflectiveOperationException {
          // Grizzly's public class, not the request's own (which may be a hidden subclass)
          return DirectCalls.implement(
              GrizzlyCalls.class,
              calls(),
              "io.tollgate.generated.GrizzlyCalls",
              requestClass.getClassLoader());
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
      return calls == null ? -1 : calls.getStatus(calls.getResponse(request));
    } catch (RuntimeException e) {
      return -1;
    }
  }

  /** {@code request.getRemoteAddr()}; null when Grizzly's API did not match (logged once). */
  public static String remoteAddress(Object request) {
    GrizzlyCalls calls = CALLS.get(request.getClass());
    return calls == null ? null : calls.getRemoteAddr(request);
  }
}
