package io.tollgate.instrumentation.jaxrs.jersey;

import io.tollgate.bootstrap.InternalErrors;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs an action once when Jersey has written a request's response, where no servlet container
 * stands in front of it (Grizzly, the JDK's HTTP server), and keeps that response for the action
 * to read its status and headers.
 *
 * <p>Jersey writes every response, the resource's own, a mapped exception's or a resumed
 * asynchronous one, through the request's {@code ContainerResponseWriter}: first {@code
 * writeResponseStatusAndHeaders(length, response)}, then {@code commit()} once the entity is
 * written, or {@code failure(error)}. The request's writer is replaced by a JDK proxy of that
 * interface (in Jersey's class loader, since the agent cannot compile against it) that passes
 * every call on to the container's writer and watches those three.
 */
final class JerseyCompletion implements InvocationHandler {

  /** Jersey's classes and methods that this needs, looked up once per copy of Jersey. */
  static final class Api {
    private final Class<?> writerType;
    private final Method getResponseWriter;
    private final Method setWriter;
    private final Method getStatus;

    Api(ClassLoader loader) throws ReflectiveOperationException {
      this.writerType =
          Class.forName("org.glassfish.jersey.server.spi.ContainerResponseWriter", false, loader);
      Class<?> request = Class.forName(JerseyApi.CONTAINER_REQUEST, false, loader);
      this.getResponseWriter = request.getMethod("getResponseWriter");
      this.setWriter = request.getMethod("setWriter", writerType);
      this.getStatus =
          Class.forName(JerseyApi.CONTAINER_RESPONSE, false, loader).getMethod("getStatus");
    }

    int status(Object containerResponse) throws ReflectiveOperationException {
      return (Integer) getStatus.invoke(containerResponse);
    }
  }

  private final Object writer;
  private final JerseyExchange exchange;
  private final Runnable action;
  private final AtomicBoolean done = new AtomicBoolean();

  private JerseyCompletion(Object writer, JerseyExchange exchange, Runnable action) {
    this.writer = writer;
    this.exchange = exchange;
    this.action = action;
  }

  /**
   * Makes {@code action} run when the response of {@code containerRequest} has been written (or
   * failed to be); {@code exchange} is told the response first.
   */
  static void register(Api api, Object containerRequest, JerseyExchange exchange, Runnable action)
      throws ReflectiveOperationException {
    Object writer = api.getResponseWriter.invoke(containerRequest);
    if (writer == null) {
      throw new IllegalStateException("the request has no response writer");
    }
    Object proxy =
        Proxy.newProxyInstance(
            api.writerType.getClassLoader(),
            new Class<?>[] {api.writerType},
            new JerseyCompletion(writer, exchange, action));
    api.setWriter.invoke(containerRequest, proxy);
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    switch (method.getName()) {
      case "hashCode":
        return System.identityHashCode(proxy);
      case "equals":
        return proxy == args[0];
      case "toString":
        return "Tollgate's end of request around " + writer;
      case "writeResponseStatusAndHeaders":
        exchange.responseWritten(args[1]);
        return call(method, args);
      case "commit":
        try {
          return call(method, args);
        } finally {
          end();
        }
      case "failure":
        exchange.responseFailed();
        try {
          return call(method, args);
        } finally {
          end();
        }
      default:
        return call(method, args);
    }
  }

  private Object call(Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(writer, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /** Runs the action once; its failure is reported and never reaches Jersey. */
  private void end() {
    if (done.compareAndSet(false, true)) {
      try {
        action.run();
      } catch (Throwable t) {
        InternalErrors.report("ending a Jersey request", t);
      }
    }
  }
}
