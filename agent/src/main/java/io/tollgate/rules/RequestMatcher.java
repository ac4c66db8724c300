package io.tollgate.rules;

import io.tollgate.config.PathGlob;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which requests a rule applies to: a method among {@code methods} and a path matching a glob.
 *
 * <p>A rule that lists {@code GET} also matches {@code HEAD}: every framework answers a HEAD with
 * the GET handler (Servlet's {@code doHead} runs {@code doGet}, Spring MVC maps HEAD to
 * {@code @GetMapping}, JAX-RS to {@code @GET}), so the whole handler runs; unlimited HEADs would
 * get past the rule and, by their status, tell which ids exist.
 */
final class RequestMatcher {

  private final PathGlob[] paths;
  private final String[] methods;

  RequestMatcher(List<String> pathGlobs, Set<String> methodNames) {
    this.paths = new PathGlob[pathGlobs.size()];
    for (int i = 0; i < paths.length; i++) {
      paths[i] = PathGlob.compile(pathGlobs.get(i));
    }
    this.methods = withImpliedMethods(methodNames).toArray(new String[0]);
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

  /** Whether any method may match (the rule lists none). */
  boolean matchesEveryMethod() {
    return methods.length == 0;
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

  private boolean matchesPath(String path) {
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
