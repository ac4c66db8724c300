package io.tollgate.instrumentation.servlet;

import java.lang.reflect.Field;
import java.lang.reflect.Method;

/**
 * The reason phrase of the status line where the servlet API cannot set it and the container's own
 * is wrong; the servlet API lost {@code setStatus(int, String)} in Servlet 6. Two containers know
 * no phrase for 429:
 *
 * <ul>
 *   <li>Grizzly, under GlassFish and Payara, writes {@code HTTP/1.1 429 CUSTOM}. Its response is
 *       reached through GlassFish's: {@code ResponseFacade.response} (the connector's
 *       {@code Response}), its {@code getCoyoteResponse()} (Grizzly's), and there
 *       {@code setStatus(int, String)}.
 *   <li>Open Liberty writes {@code HTTP/1.1 429 Undefined}. Its servlet response
 *       ({@code SRTServletResponse}) has a public {@code setReason(String)}.
 * </ul>
 *
 * <p>Every other container is left alone: Tomcat writes no phrase at all, Jetty and Undertow write
 * the right one. Found by what the objects can do, not by their names alone, and looked up once
 * per response class. Any failure keeps the container's phrase: the status code is already right,
 * and a refusal must never fail over its reason phrase.
 */
final class ReasonPhrase {

  private static final String GRIZZLY_RESPONSE = "org.glassfish.grizzly.http.server.Response";
  private static final String LIBERTY_RESPONSE = "com.ibm.ws.webcontainer.srt.SRTServletResponse";

  /** How each container response class takes a reason phrase; NONE where it needs none. */
  private static final ClassValue<Route> ROUTES = new ClassValue<Route>() {
    @Override
    protected Route computeValue(Class<?> type) {
      return Route.find(type);
    }
  };

  private ReasonPhrase() {}

  /** Sets the phrase of {@code status} on {@code response} (after its setStatus) where needed. */
  static void apply(Object response, int status) {
    String phrase = phraseOf(status);
    if (phrase == null) {
      return;
    }
    try {
      Object container = unwrap(response);
      ROUTES.get(container.getClass()).setStatus(container, status, phrase);
    } catch (Throwable ignored) {
      // Only the phrase is lost; the refusal goes on.
    }
  }

  /** The phrases of the statuses the agent writes that containers are known to miss. */
  static String phraseOf(int status) {
    switch (status) {
      case 429:
        return "Too Many Requests";
      case 503:
        return "Service Unavailable";
      default:
        return null;
    }
  }

  /**
   * Whether a class is a {@code ServletResponseWrapper}, known once per class: every refusal asks
   * of its response, and a flood's are all of the container's one class, whose superclasses'
   * names need not be walked again for each.
   */
  private static final ClassValue<Boolean> WRAPPERS = new ClassValue<Boolean>() {
    @Override
    protected Boolean computeValue(Class<?> type) {
      return isWrapper(type);
    }
  };

  /** The container's response under the application's {@code ServletResponseWrapper}s. */
  private static Object unwrap(Object response) throws ReflectiveOperationException {
    Object current = response;
    for (int depth = 0; depth < 20 && WRAPPERS.get(current.getClass()); depth++) {
      current = current.getClass().getMethod("getResponse").invoke(current);
    }
    return current;
  }

  private static boolean isWrapper(Class<?> type) {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      String name = c.getName();
      if (name.equals("jakarta.servlet.ServletResponseWrapper")
          || name.equals("javax.servlet.ServletResponseWrapper")) {
        return true;
      }
    }
    return false;
  }

  /** How one container response class takes a reason phrase. */
  private interface Route {
    Route NONE = (response, status, phrase) -> { };

    void setStatus(Object response, int status, String phrase) throws ReflectiveOperationException;

    static Route find(Class<?> type) {
      try {
        Route liberty = LibertyRoute.find(type);
        return liberty != null ? liberty : GrizzlyRoute.find(type);
      } catch (Throwable notThisContainer) {
        return NONE;
      }
    }
  }

  /** Liberty: {@code response.setReason(phrase)}. */
  private static final class LibertyRoute implements Route {
    private final Method setReason;

    private LibertyRoute(Method setReason) {
      this.setReason = setReason;
    }

    static Route find(Class<?> type) throws NoSuchMethodException {
      for (Class<?> c = type; c != null; c = c.getSuperclass()) {
        if (c.getName().equals(LIBERTY_RESPONSE)) {
          return new LibertyRoute(c.getMethod("setReason", String.class));
        }
      }
      return null;
    }

    @Override
    public void setStatus(Object response, int status, String phrase)
        throws ReflectiveOperationException {
      setReason.invoke(response, phrase);
    }
  }

  /** GlassFish and Payara: {@code facade.response.getCoyoteResponse().setStatus(status, phrase)}. */
  private static final class GrizzlyRoute implements Route {
    private final Field connectorResponse;
    private final Method coyoteResponse;
    private final Method setStatus;

    private GrizzlyRoute(Field connectorResponse, Method coyoteResponse, Method setStatus) {
      this.connectorResponse = connectorResponse;
      this.coyoteResponse = coyoteResponse;
      this.setStatus = setStatus;
    }

    static Route find(Class<?> facade) throws NoSuchMethodException {
      Field field = declaredField(facade, "response");
      if (field == null) {
        return NONE;
      }
      Method coyote = field.getType().getMethod("getCoyoteResponse");
      if (!coyote.getReturnType().getName().equals(GRIZZLY_RESPONSE)) {
        return NONE;
      }
      field.setAccessible(true);
      Method setStatus = coyote.getReturnType().getMethod("setStatus", int.class, String.class);
      return new GrizzlyRoute(field, coyote, setStatus);
    }

    private static Field declaredField(Class<?> type, String name) {
      for (Class<?> c = type; c != null; c = c.getSuperclass()) {
        try {
          return c.getDeclaredField(name);
        } catch (NoSuchFieldException next) {
          // Try the superclass.
        }
      }
      return null;
    }

    @Override
    public void setStatus(Object facade, int status, String phrase)
        throws ReflectiveOperationException {
      Object connector = connectorResponse.get(facade);
      Object grizzly = connector == null ? null : coyoteResponse.invoke(connector);
      if (grizzly != null) {
        setStatus.invoke(grizzly, status, phrase);
      }
    }
  }
}
