package io.tollgate.instrumentation.servlet;

import io.tollgate.instrumentation.EntryPointMethod;
import io.tollgate.instrumentation.RequestEntryWeaver;
import java.util.Arrays;
import java.util.List;

/**
 * {@code Servlet.service(ServletRequest, ServletResponse)} and {@code Filter.doFilter(ServletRequest,
 * ServletResponse, FilterChain)} of every concrete implementation, in one namespace. The first of
 * them that a request reaches decides it.
 */
public final class ServletEntryPoints {

  private ServletEntryPoints() {}

  public static List<EntryPointMethod> of(ServletNamespace namespace) {
    String framework = "a Servlet container (" + namespace.packageName() + ")";
    String request = descriptorOf(namespace.type("ServletRequest"));
    String response = descriptorOf(namespace.type("ServletResponse"));
    String chain = descriptorOf(namespace.type("FilterChain"));
    return Arrays.asList(
        EntryPointMethod.inImplementations(framework, namespace.type("Servlet"), "service",
            "(" + request + response + ")V", RequestEntryWeaver.class),
        EntryPointMethod.inImplementations(framework, namespace.type("Filter"), "doFilter",
            "(" + request + response + chain + ")V", RequestEntryWeaver.class));
  }

  static String descriptorOf(String className) {
    return "L" + className.replace('.', '/') + ";";
  }
}
