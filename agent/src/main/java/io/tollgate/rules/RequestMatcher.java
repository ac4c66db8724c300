package io.tollgate.rules;

import io.tollgate.config.PathGlob;
import java.util.List;
import java.util.Set;

/** Which requests a rule applies to: a method among {@code methods} and a path matching a glob. */
final class RequestMatcher {

  private final PathGlob[] paths;
  private final String[] methods;

  RequestMatcher(List<String> pathGlobs, Set<String> methodNames) {
    this.paths = new PathGlob[pathGlobs.size()];
    for (int i = 0; i < paths.length; i++) {
      paths[i] = PathGlob.compile(pathGlobs.get(i));
    }
    this.methods = methodNames.toArray(new String[0]);
  }

  /** {@code path} is already normalised; {@code method} is as the client sent it. */
  boolean matches(String method, String path) {
    return matchesMethod(method) && matchesPath(path);
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
