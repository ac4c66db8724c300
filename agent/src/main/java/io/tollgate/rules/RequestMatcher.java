package io.tollgate.rules;

import io.tollgate.config.PathGlob;
import io.tollgate.config.RequestConditions;
import io.tollgate.http.HttpExchange;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which requests a rule applies to: a method among {@code methods}, a path matching a glob, a host
 * matching a glob, and every header condition; each left out matches everything.
 *
 * <p>A rule that lists {@code GET} also matches {@code HEAD}: every framework answers a HEAD with
 * the GET handler (Servlet's {@code doHead} runs {@code doGet}, Spring MVC maps HEAD to
 * {@code @GetMapping}, JAX-RS to {@code @GET}), so the whole handler runs; unlimited HEADs would
 * get past the rule and, by their status, tell which ids exist.
 */
final class RequestMatcher {

  private final PathGlob[] paths;
  private final String[] methods;
  private final ValueGlob[] hosts;
  private final String[] headerNames;
  /** For each of {@link #headerNames}: a value glob, or null for present/absent. */
  private final ValueGlob[] headerGlobs;
  /** For each of {@link #headerNames} without a glob: whether it must be present. */
  private final boolean[] headerPresent;
  /**
   * Whether there is a host or header condition: a request of a rule with none reads this field,
   * not the two empty arrays (objects, and cache lines, of their own).
   */
  private final boolean anyHostOrHeader;

  RequestMatcher(List<String> pathGlobs, Set<String> methodNames) {
    this(pathGlobs, methodNames, Collections.emptyList(), Collections.emptyMap());
  }

  RequestMatcher(
      List<String> pathGlobs,
      Set<String> methodNames,
      List<String> hostGlobs,
      Map<String, String> headerConditions) {
    this(compiled(pathGlobs), methodNames, hostGlobs, headerConditions);
  }

  /** With the path globs compiled already (a rule's, {@code RuleConfig.pathGlobs()}). */
  RequestMatcher(
      PathGlob[] paths,
      Set<String> methodNames,
      List<String> hostGlobs,
      Map<String, String> headerConditions) {
    this.paths = paths;
    this.methods = asLiterals(withImpliedMethods(methodNames));
    this.hosts = new ValueGlob[hostGlobs.size()];
    for (int i = 0; i < hosts.length; i++) {
      hosts[i] = ValueGlob.ignoringCase(hostGlobs.get(i));
    }
    int n = headerConditions.size();
    this.headerNames = new String[n];
    this.headerGlobs = new ValueGlob[n];
    this.headerPresent = new boolean[n];
    int i = 0;
    for (Map.Entry<String, String> e : headerConditions.entrySet()) {
      headerNames[i] = e.getKey();
      String condition = e.getValue();
      if (condition.equals(RequestConditions.PRESENT) || condition.equals(RequestConditions.ABSENT)) {
        headerPresent[i] = condition.equals(RequestConditions.PRESENT);
      } else {
        headerGlobs[i] = ValueGlob.exact(condition);
      }
      i++;
    }
    this.anyHostOrHeader = hosts.length > 0 || n > 0;
  }

  /**
   * The method names, the standard ones as the JVM's one copy of each (a literal): Tomcat gives a
   * request's method as its own constant ({@code Method.GET}, a literal too), so that comparing
   * them is a comparison of references, which reads neither string's characters.
   */
  private static String[] asLiterals(Set<String> methodNames) {
    String[] names = methodNames.toArray(new String[0]);
    for (int i = 0; i < names.length; i++) {
      names[i] = literalOf(names[i]);
    }
    return names;
  }

  private static String literalOf(String method) {
    switch (method) {
      case "GET": return "GET";
      case "HEAD": return "HEAD";
      case "POST": return "POST";
      case "PUT": return "PUT";
      case "DELETE": return "DELETE";
      case "PATCH": return "PATCH";
      case "OPTIONS": return "OPTIONS";
      default: return method;
    }
  }

  private static PathGlob[] compiled(List<String> pathGlobs) {
    PathGlob[] paths = new PathGlob[pathGlobs.size()];
    for (int i = 0; i < paths.length; i++) {
      paths[i] = PathGlob.compile(pathGlobs.get(i));
    }
    return paths;
  }

  /** A rule's {@code skip:}. */
  static RequestMatcher of(RequestConditions c) {
    return new RequestMatcher(c.paths(), c.methods(), c.hosts(), c.headers());
  }

  /** {@code methodNames} as listed, with HEAD where GET is listed. */
  static Set<String> withImpliedMethods(Set<String> methodNames) {
    Set<String> all = new LinkedHashSet<>(methodNames);
    if (all.contains("GET")) {
      all.add("HEAD");
    }
    return all;
  }

  /** {@code path} is already normalised; {@code method} is as the client sent it. */
  boolean matches(String method, String path) {
    return matchesMethod(method) && matchesPath(path);
  }

  /**
   * Whether the request matches by the method the application sees ({@code effective}, after a
   * method override such as Spring's {@code _method} or an {@code X-HTTP-Method-Override} header)
   * and not by the method on the wire ({@code sent}): a request that only a framework's handler,
   * after the override, can count against this rule.
   */
  boolean matchesOnlyByOverride(String sent, String effective, String path) {
    return !matchesMethod(sent) && matchesMethod(effective) && matchesPath(path);
  }

  /** The path globs; empty when any path matches. */
  PathGlob[] paths() {
    return paths.clone();
  }

  /** Whether any method may match (the rule lists none). */
  boolean matchesEveryMethod() {
    return methods.length == 0;
  }

  /**
   * Whether the request's host and headers match; read only when asked for, so a rule without
   * them reads no header.
   */
  boolean matchesHostAndHeaders(HttpExchange exchange) {
    if (!anyHostOrHeader) {
      return true;
    }
    if (hosts.length > 0 && !matchesHost(exchange.host())) {
      return false;
    }
    for (int i = 0; i < headerNames.length; i++) {
      String value = exchange.header(headerNames[i]);
      boolean holds =
          headerGlobs[i] != null ? headerGlobs[i].matches(value) : (value != null) == headerPresent[i];
      if (!holds) {
        return false;
      }
    }
    return true;
  }

  /** Whether there is any host or header condition to check. */
  boolean hasHostOrHeaders() {
    return anyHostOrHeader;
  }

  private boolean matchesHost(String host) {
    if (host == null) {
      return false;
    }
    for (ValueGlob glob : hosts) {
      if (glob.matches(host)) {
        return true;
      }
    }
    return false;
  }

  private boolean matchesMethod(String method) {
    if (methods.length == 0) {
      return true;
    }
    for (String allowed : methods) {
      if (allowed.equals(method)) {
        return true;
      }
    }
    return false;
  }

  /** Whether the path matches, whatever the method ({@link Rule#mayApplyOnPath}). */
  boolean matchesPath(String path) {
    if (paths.length == 0) {
      return true;
    }
    for (PathGlob glob : paths) {
      if (glob.matches(path)) {
        return true;
      }
    }
    return false;
  }
}
