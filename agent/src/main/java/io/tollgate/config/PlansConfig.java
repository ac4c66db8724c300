package io.tollgate.config;

import io.tollgate.limiters.LimitSpec;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A rule's {@code plans}: the limits are chosen by the value of a request header (set by a
 * gateway or an authentication filter that the client cannot bypass); a value that names no plan,
 * or no header, gets the default plan.
 */
public final class PlansConfig {
  private final String header;
  private final String defaultPlan;
  private final Map<String, List<LimitSpec>> limits;

  /**
   * @param limits plan name to its limits, in file order; must contain {@code defaultPlan}
   */
  public PlansConfig(String header, String defaultPlan, Map<String, List<LimitSpec>> limits) {
    if (!limits.containsKey(defaultPlan)) {
      throw new IllegalArgumentException("the default plan '" + defaultPlan + "' has no limits");
    }
    this.header = header;
    this.defaultPlan = defaultPlan;
    this.limits = Collections.unmodifiableMap(new LinkedHashMap<>(limits));
  }

  /** The request header whose value names the plan. */
  public String header() {
    return header;
  }

  public String defaultPlan() {
    return defaultPlan;
  }

  /** Plan name to its limits, in file order. */
  public Map<String, List<LimitSpec>> limits() {
    return limits;
  }

  /** The plan a header value selects: the plan of that name (any case), else the default. */
  public String planFor(String headerValue) {
    if (headerValue != null) {
      String v = headerValue.trim();
      for (String plan : limits.keySet()) {
        if (plan.equalsIgnoreCase(v)) {
          return plan;
        }
      }
    }
    return defaultPlan;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof PlansConfig)) {
      return false;
    }
    PlansConfig p = (PlansConfig) o;
    return header.toLowerCase(Locale.ROOT).equals(p.header.toLowerCase(Locale.ROOT))
        && defaultPlan.equals(p.defaultPlan)
        && limits.equals(p.limits);
  }

  @Override
  public int hashCode() {
    return Objects.hash(header.toLowerCase(Locale.ROOT), defaultPlan, limits);
  }

  @Override
  public String toString() {
    StringBuilder byPlan = new StringBuilder("{");
    for (Map.Entry<String, List<LimitSpec>> plan : limits.entrySet()) {
      byPlan.append(byPlan.length() > 1 ? ", " : "").append(plan.getKey()).append('=')
          .append(Durations.format(plan.getValue()));
    }
    return "{header=" + header + ", default=" + defaultPlan + ", limits=" + byPlan + "}}";
  }
}
