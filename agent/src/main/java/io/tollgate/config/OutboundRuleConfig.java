package io.tollgate.config;

import io.tollgate.limiters.AlgorithmKind;
import io.tollgate.limiters.LimitSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One entry of the rules file's {@code outbound:} list: a limit on the calls the app itself makes
 * to a partner, matched by the call's destination and paced (or failed) before it is sent.
 * Immutable; built by {@link OutboundParser}.
 */
public final class OutboundRuleConfig extends ConfigValue {

  /** The key of every call of the rule: one budget for the partner. */
  public static final String KEY_GLOBAL = "global";
  /** A budget per destination host. */
  public static final String KEY_HOST = "host";
  /** A budget per value of a request header the app sets on its call: {@code header:NAME}. */
  public static final String KEY_HEADER_PREFIX = "header:";

  private final String name;
  private final int line;
  private final Map<String, Integer> keyLines;
  private final List<String> hosts;
  private final int port;
  private final List<String> paths;
  private final Set<String> methods;
  private final String key;
  private final AlgorithmKind algorithm;
  private final List<LimitSpec> limits;
  private final long maxDelayNanos;
  private final long maxWaitNanos;
  private final OnLimit onLimit;
  private final boolean honourPartner;
  private final long maxHonouredWaitNanos;
  private final Backend backend;
  private final Mode mode;
  private final OnFailure onFailure;
  private final long maxKeys;

  OutboundRuleConfig(String name, int line, Map<String, Integer> keyLines, List<String> hosts,
      int port, List<String> paths, Set<String> methods, String key, AlgorithmKind algorithm,
      List<LimitSpec> limits, long maxDelayNanos, long maxWaitNanos, OnLimit onLimit,
      boolean honourPartner, long maxHonouredWaitNanos, Backend backend, Mode mode,
      OnFailure onFailure, long maxKeys) {
    this.name = name;
    this.line = line;
    this.keyLines = Collections.unmodifiableMap(new HashMap<>(keyLines));
    this.hosts = Collections.unmodifiableList(new ArrayList<>(hosts));
    this.port = port;
    this.paths = Collections.unmodifiableList(new ArrayList<>(paths));
    this.methods = Collections.unmodifiableSet(new LinkedHashSet<>(methods));
    this.key = key;
    this.algorithm = algorithm;
    this.limits = Collections.unmodifiableList(new ArrayList<>(limits));
    this.maxDelayNanos = maxDelayNanos;
    this.maxWaitNanos = maxWaitNanos;
    this.onLimit = onLimit;
    this.honourPartner = honourPartner;
    this.maxHonouredWaitNanos = maxHonouredWaitNanos;
    this.backend = backend;
    this.mode = mode;
    this.onFailure = onFailure;
    this.maxKeys = maxKeys;
  }

  public String name() {
    return name;
  }

  /** The line of the rule's first key. */
  public int line() {
    return line;
  }

  /** The line of one of the rule's keys ({@code "limit"}, {@code "match.hosts"}), else the rule's. */
  public int lineOf(String key) {
    Integer l = keyLines.get(key);
    return l == null ? line : l;
  }

  /** Host globs, lower case; empty for any host. */
  public List<String> hosts() {
    return hosts;
  }

  /** The destination port; 0 for any. */
  public int port() {
    return port;
  }

  /** Path globs; empty for any path. */
  public List<String> paths() {
    return paths;
  }

  /** Methods, upper case; empty for any. */
  public Set<String> methods() {
    return methods;
  }

  /** {@code global}, {@code host} or {@code header:NAME}. */
  public String key() {
    return key;
  }

  public AlgorithmKind algorithm() {
    return algorithm;
  }

  /** One limit, or several ({@code limits:}), each its own budget. */
  public List<LimitSpec> limits() {
    return limits;
  }

  /** gcra only: how far ahead a call may be booked (and so paced); 0 when not given. */
  public long maxDelayNanos() {
    return maxDelayNanos;
  }

  /** The longest a call is held to pace it or to respect a partner's wait, in all. */
  public long maxWaitNanos() {
    return maxWaitNanos;
  }

  public OnLimit onLimit() {
    return onLimit;
  }

  /** Whether a partner's 429/503 with Retry-After, or its RateLimit r=0, holds further calls. */
  public boolean honourPartner() {
    return honourPartner;
  }

  /** The longest a partner's wait is honoured: a Retry-After beyond it is cut to it (and said). */
  public long maxHonouredWaitNanos() {
    return maxHonouredWaitNanos;
  }

  /** {@code backend}: the file's when null. */
  public Backend backend() {
    return backend;
  }

  /** The backend the rule counts on, under a file of {@code fileBackend}. */
  public Backend effectiveBackend(Backend fileBackend) {
    return backend != null ? backend : fileBackend;
  }

  /** The rule's own {@code mode}, or null. */
  public Mode mode() {
    return mode;
  }

  public Mode effectiveMode(Mode global) {
    return mode != null ? mode : global;
  }

  /** What a shared store's outage does; {@code allow} (the call is sent) unless given. */
  public OnFailure onFailure() {
    return onFailure == null ? OnFailure.ALLOW : onFailure;
  }

  /** How many keys the rule tracks at most. */
  public long maxKeys() {
    return maxKeys;
  }

  /**
   * What the rule's value is: every setting, not where it is written (its lines). Equality and
   * hash are derived from it; {@code RuleConfigEqualityTest} fails, naming the field, when a field
   * is left out.
   */
  @Override
  Object[] fields() {
    return new Object[] {
      name, hosts, port, paths, methods, key, algorithm, limits, maxDelayNanos, maxWaitNanos,
      onLimit, honourPartner, maxHonouredWaitNanos, backend, mode, onFailure, maxKeys
    };
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(name).append(": ");
    sb.append(hosts.isEmpty() ? "any host" : String.join(", ", hosts));
    if (port > 0) {
      sb.append(" port ").append(port);
    }
    if (!paths.isEmpty()) {
      sb.append(" ").append(String.join(", ", paths));
    }
    if (!methods.isEmpty()) {
      sb.append(" ").append(String.join("/", methods));
    }
    sb.append(", key ").append(key).append(", ").append(algorithm.yamlName());
    for (LimitSpec l : limits) {
      sb.append(" ").append(l.limit()).append("/").append(Durations.format(l.periodNanos()));
      if (l.burst() > 0) {
        sb.append(" burst ").append(l.burst());
      }
    }
    if (maxDelayNanos > 0) {
      sb.append(", max-delay ").append(Durations.format(maxDelayNanos));
    }
    sb.append(", on-limit ").append(onLimit.yamlName());
    if (onLimit == OnLimit.WAIT) {
      sb.append(" (max-wait ").append(Durations.format(maxWaitNanos)).append(")");
    }
    sb.append(honourPartner
        ? ", honours the partner's waits up to " + Durations.format(maxHonouredWaitNanos)
        : ", ignores the partner's waits");
    if (backend != null) {
      sb.append(", backend ").append(backend.yamlName());
    }
    if (mode != null) {
      sb.append(", mode ").append(mode.yamlName());
    }
    return sb.toString();
  }
}
