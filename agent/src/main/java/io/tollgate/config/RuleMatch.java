package io.tollgate.config;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Which requests a rule counts: its {@code match:} (paths, methods, route, hosts, headers) and {@code skip:}. */
public final class RuleMatch extends ConfigValue {

  private final List<String> paths;
  private final Set<String> methods;
  private final String route;
  private final List<String> hosts;
  private final Map<String, String> headers;
  private final RequestConditions skip;
  /**
   * {@link #paths} compiled, once: the rules' build matches with these rather than compiling each
   * glob again (for a file of 10,000 rules, 10,000 globs and their segments fewer to make). Not
   * one of {@link #fields}: the same text makes the same glob.
   */
  private final List<PathGlob> pathGlobs;

  /** @throws IllegalArgumentException when a path glob is bad */
  RuleMatch(
      List<String> paths,
      Set<String> methods,
      String route,
      List<String> hosts,
      Map<String, String> headers,
      RequestConditions skip) {
    PathGlob[] compiled = new PathGlob[paths.size()];
    for (int i = 0; i < compiled.length; i++) {
      // refused here, where the rule is made, not where it first matches
      compiled[i] = PathGlob.compile(paths.get(i));
    }
    this.pathGlobs = Collections.unmodifiableList(Arrays.asList(compiled));
    this.paths = Collections.unmodifiableList(new ArrayList<>(paths));
    Set<String> upper = new LinkedHashSet<>();
    for (String method : methods) {
      upper.add(method.toUpperCase(Locale.ROOT));
    }
    this.methods = Collections.unmodifiableSet(upper);
    this.route = route;
    this.hosts = Collections.unmodifiableList(new ArrayList<>(hosts));
    this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    this.skip = skip;
  }

  @Override
  Object[] fields() {
    return new Object[] {paths, methods, route, hosts, headers, skip};
  }

  /** {@code match.path}: globs as written; empty = every path. */
  public List<String> paths() {
    return paths;
  }

  /** {@link #paths} compiled, in the same order. */
  public List<PathGlob> pathGlobs() {
    return pathGlobs;
  }

  /** {@code match.methods}, upper-case; empty = any method. */
  public Set<String> methods() {
    return methods;
  }

  /** {@code match.route}: a route template such as {@code /api/orders/{id}}, or null. */
  public String route() {
    return route;
  }

  /** {@code match.hosts}: host globs, lower-case, without a port; empty = any host. */
  public List<String> hosts() {
    return hosts;
  }

  /**
   * {@code match.headers}: header name (lower-case) to {@link RequestConditions#PRESENT},
   * {@link RequestConditions#ABSENT} or a value glob; empty = no condition.
   */
  public Map<String, String> headers() {
    return headers;
  }

  /** {@code skip:}: requests the rule never counts, or null. */
  public RequestConditions skip() {
    return skip;
  }

  /**
   * Whether any of the path globs matches (true when there are none). For tools and tests: the
   * agent matches requests with the globs {@code rules.RequestMatcher} compiles once.
   */
  public boolean matchesPath(String normalizedPath) {
    if (paths.isEmpty()) {
      return true;
    }
    for (String p : paths) {
      if (PathGlob.compile(p).matches(normalizedPath)) {
        return true;
      }
    }
    return false;
  }
}
