package io.tollgate.instrumentation.jaxrs;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Reads the client's address from Grizzly's own request ({@code
 * org.glassfish.grizzly.http.server.Request}), which Jersey's request object does not carry. The
 * method is looked up once per request class, in the application's class loader.
 */
public final class GrizzlyRequests {

  static final String REQUEST = "org.glassfish.grizzly.http.server.Request";

  private static final ClassValue<MethodHandle> GET_REMOTE_ADDR =
      new ClassValue<MethodHandle>() {
        @Override
        protected MethodHandle computeValue(Class<?> requestClass) {
          try {
            // Grizzly's public class, not the request's own (which may be a hidden subclass)
            Class<?> request = Class.forName(REQUEST, false, requestClass.getClassLoader());
            return MethodHandles.publicLookup()
                .findVirtual(request, "getRemoteAddr", MethodType.methodType(String.class))
                .asType(MethodType.methodType(String.class, Object.class));
          } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("no " + REQUEST + ".getRemoteAddr() for " + requestClass, e);
          }
        }
      };

  private GrizzlyRequests() {}

  /** {@code request.getRemoteAddr()}. */
  public static String remoteAddress(Object request) {
    try {
      return (String) GET_REMOTE_ADDR.get(request.getClass()).invokeExact(request);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException(t);
    }
  }
}
