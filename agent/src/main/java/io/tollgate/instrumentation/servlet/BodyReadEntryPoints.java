package io.tollgate.instrumentation.servlet;

import io.tollgate.instrumentation.EntryPointMethod;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The container's own request class, where every servlet request's parameters and body are read
 * ({@code getParameter}, {@code getParameterMap}, {@code getPart}, {@code getInputStream}...),
 * whatever wrappers and facades the application reads them through: Tomcat's, Jetty's,
 * Undertow's and Open Liberty's, matched by name. Woven so that rules keyed by a form field
 * decide when the application first reads it, and never before.
 */
public final class BodyReadEntryPoints {

  // Weavers by name, each loaded when it first weaves a method, not in premain (EntryPointMethod)
  private static final String BODY_READ_WEAVER =
      "io.tollgate.instrumentation.servlet.BodyReadWeaver";

  /** The request classes that hold the parsing, by container. */
  static final List<String> CONTAINER_REQUESTS = Arrays.asList(
      "org.apache.catalina.connector.Request", // Tomcat, and the servers built on it
      "org.eclipse.jetty.ee10.servlet.ServletApiRequest", // Jetty 12, ee10
      "org.eclipse.jetty.ee9.nested.Request", // Jetty 12, ee9
      "org.eclipse.jetty.ee8.nested.Request", // Jetty 12, ee8
      "org.eclipse.jetty.server.Request", // Jetty 9 to 11
      "io.undertow.servlet.spec.HttpServletRequestImpl", // Undertow, WildFly
      // Open Liberty: declared here, not overridden by its SRTServletRequest31/40/60
      "com.ibm.ws.webcontainer.srt.SRTServletRequest");

  private BodyReadEntryPoints() {}

  public static List<EntryPointMethod> of(ServletNamespace namespace) {
    // one name for both namespaces: the methods that read parameters have the same descriptors
    String framework = "the request parameters of a Servlet container";
    String inputStream = ServletEntryPoints.descriptorOf(namespace.type("ServletInputStream"));
    String part = ServletEntryPoints.descriptorOf(namespace.type("http.Part"));
    String[][] methods = {
      {"getParameter", "(Ljava/lang/String;)Ljava/lang/String;"},
      {"getParameterValues", "(Ljava/lang/String;)[Ljava/lang/String;"},
      {"getParameterMap", "()Ljava/util/Map;"},
      {"getParameterNames", "()Ljava/util/Enumeration;"},
      {"getParts", "()Ljava/util/Collection;"},
      {"getPart", "(Ljava/lang/String;)" + part},
      {"getInputStream", "()" + inputStream},
      {"getReader", "()Ljava/io/BufferedReader;"},
    };
    List<EntryPointMethod> all = new ArrayList<>();
    for (String request : CONTAINER_REQUESTS) {
      for (String[] method : methods) {
        all.add(EntryPointMethod.inClass(
            framework, request, method[0], method[1], BODY_READ_WEAVER));
      }
    }
    return all;
  }

  /**
   * How the method of this descriptor reads the body, as {@link ServletBodyReads} is told: raw
   * ({@code getInputStream}, {@code getReader}), as multipart parts ({@code getPart},
   * {@code getParts}), or as parameters.
   */
  static String howItReads(String descriptor) {
    if (descriptor.endsWith("ServletInputStream;")
        || descriptor.endsWith("Ljava/io/BufferedReader;")) {
      return ServletBodyReads.RAW;
    }
    if (descriptor.endsWith("/http/Part;") || descriptor.endsWith(")Ljava/util/Collection;")) {
      return ServletBodyReads.PARTS;
    }
    return ServletBodyReads.PARSED;
  }
}
