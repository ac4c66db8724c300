package io.tollgate.instrumentation.grizzly;

import io.tollgate.instrumentation.DirectCalls;
import java.util.Collections;

/**
 * Reads the client's address from Grizzly's own request ({@code
 * org.glassfish.grizzly.http.server.Request}), which Jersey's request object does not carry,
 * through the {@link GrizzlyCalls} written once per request class.
 */
public final class GrizzlyRequests {

  static final String REQUEST = "org.glassfish.grizzly.http.server.Request";

  private static final ClassValue<GrizzlyCalls> CALLS =
      new ClassValue<GrizzlyCalls>() {
        @Override
        protected GrizzlyCalls computeValue(Class<?> requestClass) {
          try {
            // Grizzly's public class, not the request's own (which may be a hidden subclass)
            return DirectCalls.implement(
                GrizzlyCalls.class,
                Collections.singletonMap("getRemoteAddr", REQUEST + "#getRemoteAddr"),
                "io.tollgate.generated.GrizzlyCalls",
                requestClass.getClassLoader());
          } catch (ReflectiveOperationException | LinkageError e) {
            throw new IllegalStateException(
                "no " + REQUEST + ".getRemoteAddr() for " + requestClass + ": " + e, e);
          }
        }
      };

  private GrizzlyRequests() {}

  /** {@code request.getRemoteAddr()}. */
  public static String remoteAddress(Object request) {
    return CALLS.get(request.getClass()).getRemoteAddr(request);
  }
}
