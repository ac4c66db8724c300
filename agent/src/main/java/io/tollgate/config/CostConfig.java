package io.tollgate.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** A rule's {@code cost}: one number, or a default plus costs by path glob (first match wins). */
public final class CostConfig {
  /** Every request costs 1. */
  public static final CostConfig ONE = new CostConfig(1, Collections.<String, Long>emptyMap());

  private final long defaultCost;
  private final Map<String, Long> byPath;
  private final PathGlob[] globs;
  private final long[] costs;

  /**
   * @param byPath glob to cost, in the order given (iteration order is kept)
   * @throws IllegalArgumentException when a glob is invalid
   */
  public CostConfig(long defaultCost, Map<String, Long> byPath) {
    this.defaultCost = defaultCost;
    this.byPath = Collections.unmodifiableMap(new LinkedHashMap<>(byPath));
    this.globs = new PathGlob[byPath.size()];
    this.costs = new long[byPath.size()];
    int i = 0;
    for (Map.Entry<String, Long> e : this.byPath.entrySet()) {
      globs[i] = PathGlob.compile(e.getKey());
      costs[i] = e.getValue();
      i++;
    }
  }

  /** The cost of a request whose path matches no glob; default 1. */
  public long defaultCost() {
    return defaultCost;
  }

  /** Glob to cost, in file order; may be empty. */
  public Map<String, Long> byPath() {
    return byPath;
  }

  /** The cost of the first glob matching this path, else {@link #defaultCost()}. Allocation-free. */
  public long costFor(String normalizedPath) {
    for (int i = 0; i < globs.length; i++) {
      if (globs[i].matches(normalizedPath)) {
        return costs[i];
      }
    }
    return defaultCost;
  }

  /** The largest cost any request can have under this rule. */
  public long maxCost() {
    long max = defaultCost;
    for (long c : costs) {
      max = Math.max(max, c);
    }
    return max;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof CostConfig)) {
      return false;
    }
    CostConfig c = (CostConfig) o;
    // file order matters (first match wins), so compare the entries in order
    return defaultCost == c.defaultCost
        && new java.util.ArrayList<>(byPath.entrySet()).equals(new java.util.ArrayList<>(c.byPath.entrySet()));
  }

  @Override
  public int hashCode() {
    return Long.hashCode(defaultCost) * 31 + byPath.hashCode();
  }

  @Override
  public String toString() {
    return byPath.isEmpty()
        ? String.valueOf(defaultCost)
        : "{default=" + defaultCost + ", " + byPath.toString().substring(1);
  }
}
