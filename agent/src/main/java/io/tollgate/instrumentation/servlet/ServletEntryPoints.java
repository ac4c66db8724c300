package io.tollgate.instrumentation.servlet;

import io.tollgate.instrumentation.EntryPointMethod;
import java.util.Arrays;
import java.util.List;

/**
 * {@code Servlet.service(ServletRequest, ServletResponse)} and {@code Filter.doFilter(ServletRequest,
 * ServletResponse, FilterChain)} of every concrete implementation, in one namespace. The first of
 * them that a request reaches decides it.
 */
public final class ServletEntryPoints {

  // Weavers by name, each loaded when it first weaves a method, not in premain (EntryPointMethod)
  private static final String REQUEST_ENTRY_WEAVER =
      "io.tollgate.instrumentation.RequestEntryWeaver";

  private ServletEntryPoints() {}

  public static List<EntryPointMethod> of(ServletNamespace namespace) {
    String framework = "a Servlet container (" + namespace.packageName() + ")";
    String request = descriptorOf(namespace.type("ServletRequest"));
    String response = descriptorOf(namespace.type("ServletResponse"));
    String chain = descriptorOf(namespace.type("FilterChain"));
    return Arrays.asList(
        EntryPointMethod.inImplementations(framework, namespace.type("Servlet"), "service",
            "(" + request + response + ")V", REQUEST_ENTRY_WEAVER),
        EntryPointMethod.inImplementations(framework, namespace.type("Filter"), "doFilter",
            "(" + request + response + chain + ")V", REQUEST_ENTRY_WEAVER));
  }

  static String descriptorOf(String className) {
    return "L" + className.replace('.', '/') + ";";
  }
}
