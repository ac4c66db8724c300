package io.tollgate.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A {@code match:}-like block of conditions on a request, all of which must hold: path globs,
 * methods, host globs, and header conditions. A rule's {@code skip:} is one.
 *
 * <p>Header conditions map a header name (lower-case) to {@link #PRESENT}, {@link #ABSENT} or a
 * value glob.
 */
public final class RequestConditions {

  /** A header condition: the header is sent, with any value. */
  public static final String PRESENT = "present";
  /** A header condition: the header is not sent. */
  public static final String ABSENT = "absent";

  private final List<String> paths;
  private final Set<String> methods;
  private final List<String> hosts;
  private final Map<String, String> headers;

  public RequestConditions(
      List<String> paths, Set<String> methods, List<String> hosts, Map<String, String> headers) {
    this.paths = Collections.unmodifiableList(paths);
    this.methods = Collections.unmodifiableSet(methods);
    this.hosts = Collections.unmodifiableList(hosts);
    this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
  }

  public List<String> paths() {
    return paths;
  }

  public Set<String> methods() {
    return methods;
  }

  /** Host globs, lower-case, without a port. */
  public List<String> hosts() {
    return hosts;
  }

  /** Header name (lower-case) to {@link #PRESENT}, {@link #ABSENT} or a value glob. */
  public Map<String, String> headers() {
    return headers;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof RequestConditions)) {
      return false;
    }
    RequestConditions r = (RequestConditions) o;
    return paths.equals(r.paths)
        && methods.equals(r.methods)
        && hosts.equals(r.hosts)
        && headers.equals(r.headers);
  }

  @Override
  public int hashCode() {
    return Objects.hash(paths, methods, hosts, headers);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("{");
    if (!paths.isEmpty()) {
      sb.append("path=").append(paths).append(' ');
    }
    if (!methods.isEmpty()) {
      sb.append("methods=").append(methods).append(' ');
    }
    if (!hosts.isEmpty()) {
      sb.append("hosts=").append(hosts).append(' ');
    }
    if (!headers.isEmpty()) {
      sb.append("headers=").append(headers);
    }
    return sb.toString().trim() + "}";
  }
}
