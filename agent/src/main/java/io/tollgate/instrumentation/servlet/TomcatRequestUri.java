package io.tollgate.instrumentation.servlet;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * Tomcat's request URI read from its bytes, for requests that Tomcat hands over unwrapped (its
 * {@code RequestFacade}).
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

  private final MethodHandle facadeRequest;
  private final MethodHandle coyoteRequest;
  private final MethodHandle requestUri;
  private final MethodHandle type;
  private final MethodHandle byteChunk;
  private final MethodHandle buffer;
  private final MethodHandle start;
  private final MethodHandle length;
  private final MethodHandle charset;

  private TomcatRequestUri(Class<?> facade) throws ReflectiveOperationException {
    ClassLoader loader = facade.getClassLoader();
    Class<?> request = Class.forName("org.apache.catalina.connector.Request", false, loader);
    Class<?> coyote = Class.forName("org.apache.coyote.Request", false, loader);
    Class<?> messageBytes = Class.forName("org.apache.tomcat.util.buf.MessageBytes", false, loader);
    Class<?> chunk = Class.forName("org.apache.tomcat.util.buf.ByteChunk", false, loader);
    if (messageBytes.getField("T_BYTES").getInt(null) != T_BYTES) {
      throw new NoSuchFieldException("MessageBytes.T_BYTES is not " + T_BYTES);
    }
    Field field = facade.getDeclaredField("request");
    field.setAccessible(true);
    MethodHandles.Lookup lookup = MethodHandles.publicLookup();
    facadeRequest =
        MethodHandles.lookup().unreflectGetter(field)
            .asType(MethodType.methodType(Object.class, Object.class));
    coyoteRequest = getter(lookup, request, "getCoyoteRequest", coyote);
    requestUri = getter(lookup, coyote, "requestURI", messageBytes);
    type =
        lookup.findVirtual(messageBytes, "getType", MethodType.methodType(int.class))
            .asType(MethodType.methodType(int.class, Object.class));
    byteChunk = getter(lookup, messageBytes, "getByteChunk", chunk);
    buffer =
        lookup.findVirtual(chunk, "getBuffer", MethodType.methodType(byte[].class))
            .asType(MethodType.methodType(byte[].class, Object.class));
    start =
        lookup.findVirtual(chunk, "getStart", MethodType.methodType(int.class))
            .asType(MethodType.methodType(int.class, Object.class));
    length =
        lookup.findVirtual(chunk, "getLength", MethodType.methodType(int.class))
            .asType(MethodType.methodType(int.class, Object.class));
    charset =
        lookup.findVirtual(chunk, "getCharset", MethodType.methodType(Charset.class))
            .asType(MethodType.methodType(Charset.class, Object.class));
  }

  private static MethodHandle getter(
      MethodHandles.Lookup lookup, Class<?> owner, String name, Class<?> returns)
      throws ReflectiveOperationException {
    return lookup.findVirtual(owner, name, MethodType.methodType(returns))
        .asType(MethodType.methodType(Object.class, Object.class));
  }

  /** For Tomcat's request facade class; null for any other class, or a Tomcat it does not know. */
  static TomcatRequestUri forRequestClass(Class<?> requestClass) {
    if (!requestClass.getName().equals("org.apache.catalina.connector.RequestFacade")) {
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
      Object request = facadeRequest.invokeExact(facade);
      if (request == null) {
        return null;
      }
      Object uri = requestUri.invokeExact(coyoteRequest.invokeExact(request));
      if ((int) type.invokeExact(uri) != T_BYTES) {
        return null;
      }
      Object bytes = byteChunk.invokeExact(uri);
      if ((Charset) charset.invokeExact(bytes) != StandardCharsets.ISO_8859_1) {
        return null;
      }
      byte[] data = (byte[]) buffer.invokeExact(bytes);
      return new String(
          data, (int) start.invokeExact(bytes), (int) length.invokeExact(bytes),
          StandardCharsets.ISO_8859_1);
    } catch (Throwable e) {
      return null;
    }
  }
}
