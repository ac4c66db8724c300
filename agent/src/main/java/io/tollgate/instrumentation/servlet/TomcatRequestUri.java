package io.tollgate.instrumentation.servlet;

import io.tollgate.instrumentation.DirectCalls;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Tomcat's request URI read from its bytes, for requests that Tomcat hands over unwrapped (its
 * {@code RequestFacade}), and for its connector's own request, which its host valve passes.
 *
 * <p>Why: {@code getRequestURI()} on Tomcat turns the URI's bytes into a string through
 * {@code Charset.decode} (a decoder per thread looked up by name, a {@code CharBuffer}, a copy),
 * which the end-to-end profile showed as about 3% of a hello-world request's CPU, as much as the
 * rest of the rate-limit decision; and an application that never asks for the URI paid it only
 * because of the agent. The URI's bytes are ISO-8859-1 there (Tomcat's default for raw bytes), so
 * one {@code new String(bytes, ISO_8859_1)} gives the very string {@code getRequestURI()} would.
 *
 * <p>Only where every piece is as expected: Tomcat's classes with these members, the URI still in
 * bytes, in ISO-8859-1. Otherwise (another container, another Tomcat version, a URI rewritten as
 * a string, any exception) the caller uses {@code getRequestURI()}.
 */
final class TomcatRequestUri {

  private static final int T_BYTES = 2;

  private static final String REQUEST = "org.apache.catalina.connector.Request#";
  private static final String COYOTE_REQUEST = "org.apache.coyote.Request#";
  private static final String MESSAGE_BYTES = "org.apache.tomcat.util.buf.MessageBytes#";
  private static final String BYTE_CHUNK = "org.apache.tomcat.util.buf.ByteChunk#";

  /**
   * The connector request behind the facade given: its {@code request} field (protected, so read
   * through a handle); null for the connector request itself (the host valve's), which is read
   * directly: a handle kept in a field is no constant to the JIT, and an identity handle would be
   * a call it never inlines on every request that passes the valve.
   */
  private final MethodHandle facadeRequest;
  private final TomcatCalls calls;
  /** The URIs of recent requests, so that most requests make no new string for theirs. */
  private final RecentUris recent = new RecentUris();

  private TomcatRequestUri(Class<?> requestClass) throws ReflectiveOperationException {
    ClassLoader loader = requestClass.getClassLoader();
    Class<?> messageBytes =
        Class.forName("org.apache.tomcat.util.buf.MessageBytes", false, loader);
    if (messageBytes.getField("T_BYTES").getInt(null) != T_BYTES) {
      throw new NoSuchFieldException("MessageBytes.T_BYTES is not " + T_BYTES);
    }
    facadeRequest = TomcatRequestClasses.connectorRequestOf(requestClass);
    Map<String, String> targets = new HashMap<>();
    targets.put("getCoyoteRequest", REQUEST + "getCoyoteRequest");
    targets.put("requestURI", COYOTE_REQUEST + "requestURI");
    targets.put("getType", MESSAGE_BYTES + "getType");
    targets.put("getByteChunk", MESSAGE_BYTES + "getByteChunk");
    for (String method : new String[] {"getBuffer", "getStart", "getLength", "getCharset"}) {
      targets.put(method, BYTE_CHUNK + method);
    }
    calls =
        DirectCalls.implement(
            TomcatCalls.class, targets, "io.tollgate.generated.TomcatCalls", loader);
  }

  /**
   * For Tomcat's request facade class or its connector request class; null for any other class,
   * or a Tomcat it does not know.
   */
  static TomcatRequestUri forRequestClass(Class<?> requestClass) {
    if (!TomcatRequestClasses.isTomcatRequest(requestClass)) {
      return null;
    }
    try {
      return new TomcatRequestUri(requestClass);
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null;
    }
  }

  /** The request URI, or null when it cannot be read this way (the caller asks Tomcat). */
  String of(Object facade) {
    try {
      Object request = facadeRequest == null ? facade : facadeRequest.invokeExact(facade);
      if (request == null) {
        return null;
      }
      Object uri = calls.requestURI(calls.getCoyoteRequest(request));
      if (calls.getType(uri) != T_BYTES) {
        return null;
      }
      Object bytes = calls.getByteChunk(uri);
      if (calls.getCharset(bytes) != StandardCharsets.ISO_8859_1) {
        return null;
      }
      return recent.of(calls.getBuffer(bytes), calls.getStart(bytes), calls.getLength(bytes));
    } catch (Throwable e) {
      return null;
    }
  }
}
