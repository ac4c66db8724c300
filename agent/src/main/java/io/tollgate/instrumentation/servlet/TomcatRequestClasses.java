package io.tollgate.instrumentation.servlet;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;

/**
 * Tomcat's two request classes that the agent meets, and the way from one to the other: the
 * connector request ({@code org.apache.catalina.connector.Request}, which its host valve passes)
 * and the {@code RequestFacade} over it (what filters and servlets get, unwrapped). Shared by the
 * helpers that read Tomcat's own request ({@link TomcatRequestUri}, {@link TomcatRequestNotes}).
 */
final class TomcatRequestClasses {

  static final String FACADE = "org.apache.catalina.connector.RequestFacade";
  static final String CONNECTOR_REQUEST = "org.apache.catalina.connector.Request";

  private TomcatRequestClasses() {}

  /** Whether {@code requestClass} is Tomcat's facade or its connector request. */
  static boolean isTomcatRequest(Class<?> requestClass) {
    String name = requestClass.getName();
    return name.equals(FACADE) || name.equals(CONNECTOR_REQUEST);
  }

  /**
   * A handle that reads the connector request behind a facade of {@code requestClass} (its
   * protected {@code request} field), typed {@code (Object)Object}; null when {@code
   * requestClass} is the connector request itself, which callers use as it is (a handle kept in
   * a field is no constant to the JIT, and an identity handle would be a call it never inlines).
   */
  static MethodHandle connectorRequestOf(Class<?> requestClass)
      throws ReflectiveOperationException {
    if (requestClass.getName().equals(CONNECTOR_REQUEST)) {
      return null;
    }
    Field field = requestClass.getDeclaredField("request");
    field.setAccessible(true);
    return MethodHandles.lookup()
        .unreflectGetter(field)
        .asType(MethodType.methodType(Object.class, Object.class));
  }
}
