package io.tollgate.config;

import io.tollgate.limiters.AlgorithmKind;
import io.tollgate.limiters.CalendarQuota;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** One validated entry of {@code rules}. Immutable. */
public final class RuleConfig {
  /** {@code max-keys} when not given. */
  public static final long DEFAULT_MAX_KEYS = 100_000L;

  /** Nominal days of each {@link CalendarQuota.Unit}, in declaration order. */
  private static final long[] CALENDAR_NOMINAL_DAYS = {1, 7, 30, 365};

  private static final String[] LOGIN_STYLE_WORDS = {"login", "signin", "otp", "password", "passwd", "token", "mfa", "2fa", "auth",
      "securitycheck"}; // compared with '-' and '_' removed: sign-in, j_security_check, oauth
  /** Parameter names (or their ends: j_username, userEmail) that name an account. */
  private static final String[] USER_NAME_WORDS = {"username", "user", "userid", "login", "email",
      "mail", "account", "uid", "principal"}; // compared lower case with '-', '_' and '.' removed

  private final String name;
  private final int line;
  private final Map<String, Integer> keyLines;
  private final List<String> paths;
  private final List<PathGlob> pathGlobs;
  private final Set<String> methods;
  private final String route;
  private final List<String> hosts;
  private final Map<String, String> headers;
  private final RequestConditions skip;
  private final List<String> key;
  private final Boolean keyNormalize;
  private final AlgorithmKind algorithm;
  private final long limit;
  private final long periodNanos;
  private final long burst;
  private final CostConfig cost;
  private final OnFailure onFailure;
  private final Mode mode;
  private final Boolean quotaHeaders;
  private final boolean partitionKey;
  private final long maxKeys;
  private final List<LimitConfig> limits;
  private final long maxDelayNanos;
  private final CalendarQuota.Unit calendar;
  private final ZoneId timeZone;
  private final String costHeader;
  private final CountWhen countWhen;
  private final List<String> keyFallback;
  private final PlansConfig plans;
  private final AllowConfig allow;
  private final PenaltyConfig penalty;
  private final ResponseConfig response;
  private final int adaptiveMin;
  private final int adaptiveInitial;
  private final int adaptiveMax;
  private final long maxWaitNanos;
  private final int perClientPercent;
  private final List<String> perClientKey;

  private RuleConfig(Builder b) {
    if (b.plans != null) {
      LimitConfig first = b.plans.limits().get(b.plans.defaultPlan()).get(0);
      b.limit = first.limit();
      b.periodNanos = first.periodNanos();
      b.burst = first.burst();
    } else if (b.limits != null && !b.limits.isEmpty()) {
      b.limit = b.limits.get(0).limit();
      b.periodNanos = b.limits.get(0).periodNanos();
      b.burst = b.limits.get(0).burst();
    }
    this.name = Objects.requireNonNull(b.name, "name");
    this.line = b.line;
    this.keyLines = Collections.unmodifiableMap(new HashMap<>(b.keyLines));
    this.paths = Collections.unmodifiableList(new ArrayList<>(b.paths));
    List<PathGlob> globs = new ArrayList<>(b.paths.size());
    for (String p : b.paths) {
      globs.add(PathGlob.compile(p));
    }
    this.pathGlobs = Collections.unmodifiableList(globs);
    Set<String> m = new LinkedHashSet<>();
    for (String method : b.methods) {
      m.add(method.toUpperCase(Locale.ROOT));
    }
    this.methods = Collections.unmodifiableSet(m);
    this.route = b.route;
    this.hosts = Collections.unmodifiableList(new ArrayList<>(b.hosts));
    this.headers = Collections.unmodifiableMap(new java.util.LinkedHashMap<>(b.headers));
    this.skip = b.skip;
    this.key =
        Collections.unmodifiableList(
            new ArrayList<>(b.key.isEmpty() ? Collections.singletonList("ip") : b.key));
    this.keyNormalize = b.keyNormalize;
    this.algorithm = b.algorithm == null ? AlgorithmKind.TOKEN_BUCKET : b.algorithm;
    if (b.limit <= 0) {
      throw new IllegalArgumentException("limit must be positive: " + b.limit);
    }
    if (b.periodNanos <= 0) {
      throw new IllegalArgumentException("period must be positive: " + b.periodNanos);
    }
    this.limit = b.limit;
    this.periodNanos = b.periodNanos;
    this.burst = b.burst > 0 ? b.burst : b.limit;
    this.cost = b.cost == null ? CostConfig.ONE : b.cost;
    this.onFailure = b.onFailure == null ? OnFailure.ALLOW : b.onFailure;
    this.mode = b.mode;
    this.quotaHeaders = b.quotaHeaders;
    this.partitionKey = b.partitionKey;
    this.maxKeys = b.maxKeys > 0 ? b.maxKeys : DEFAULT_MAX_KEYS;
    this.limits =
        Collections.unmodifiableList(
            b.plans == null && b.limits != null && !b.limits.isEmpty()
                ? new ArrayList<>(b.limits)
                : Collections.singletonList(new LimitConfig(limit, periodNanos, burst)));
    this.maxDelayNanos = b.maxDelayNanos;
    this.calendar = b.calendar;
    this.timeZone = b.calendar == null ? null : b.timeZone == null ? ZoneOffset.UTC : b.timeZone;
    this.costHeader = b.costHeader;
    this.countWhen = b.countWhen;
    this.keyFallback = b.keyFallback == null ? null : Collections.unmodifiableList(new ArrayList<>(b.keyFallback));
    this.plans = b.plans;
    this.allow = b.allow == null ? AllowConfig.NONE : b.allow;
    this.penalty = b.penalty;
    this.response = b.response == null ? ResponseConfig.NONE : b.response;
    this.adaptiveMin = b.adaptiveMin;
    this.adaptiveInitial = b.adaptiveInitial;
    this.adaptiveMax = b.adaptiveMax;
    this.maxWaitNanos = b.maxWaitNanos;
    this.perClientPercent = b.perClientPercent;
    this.perClientKey = b.perClientKey == null
        ? Collections.singletonList("ip")
        : Collections.unmodifiableList(new ArrayList<>(b.perClientKey));
  }

  /**
   * {@code per-client} of the concurrency algorithms: the most of the permits one client key may
   * hold, in percent (1 to 100), or 0 when off. Its default (50 on a rule keyed {@code global},
   * else off) is filled in by the parser.
   */
  public int perClientPercent() {
    return perClientPercent;
  }

  /** {@code per-client-key}: what tells one client from another for {@link #perClientPercent}. */
  public List<String> perClientKey() {
    return perClientKey;
  }

  /** {@code min} of adaptive-concurrency (its default filled in); 0 for other algorithms. */
  public int adaptiveMin() {
    return adaptiveMin;
  }

  /** {@code initial} of adaptive-concurrency (its default filled in); 0 for other algorithms. */
  public int adaptiveInitial() {
    return adaptiveInitial;
  }

  /** {@code max} of adaptive-concurrency (its default filled in); 0 for other algorithms. */
  public int adaptiveMax() {
    return adaptiveMax;
  }

  /** {@code max-wait} of adaptive-concurrency; 0 = refuse at once. */
  public long maxWaitNanos() {
    return maxWaitNanos;
  }

  /**
   * The rule's limits: {@code limits}, or the one {@code limit}/{@code period}/{@code burst}. With
   * {@link #plans()}, the default plan's limits are in the plans instead, and this is its first.
   */
  public List<LimitConfig> limits() {
    return limits;
  }

  /** {@code max-delay} of the gcra algorithm; 0 = refuse rather than delay. */
  public long maxDelayNanos() {
    return maxDelayNanos;
  }

  /** {@code calendar}: the calendar unit of a calendar quota, or null. */
  public CalendarQuota.Unit calendar() {
    return calendar;
  }

  /** {@code time-zone} of a calendar quota (UTC when not given); null without a calendar. */
  public ZoneId timeZone() {
    return timeZone;
  }

  /** {@code cost-header}: the response header that corrects the cost, or null. */
  public String costHeader() {
    return costHeader;
  }

  /**
   * {@code count-when}: the response statuses that count; a request that ends with another has
   * its charge given back. Null: every request counts.
   */
  public CountWhen countWhen() {
    return countWhen;
  }

  /**
   * The key for requests that lack {@link #key()} (for example {@code ip} when there is no API key
   * header), or null: such requests are then not counted by this rule.
   */
  public List<String> keyFallback() {
    return keyFallback;
  }

  /** {@code plans}, or null. */
  public PlansConfig plans() {
    return plans;
  }

  /** {@code allow} (with the top-level allowlist merged in); never null. */
  public AllowConfig allow() {
    return allow;
  }

  /**
   * The rule's own {@code response} ({@link ResponseConfig#NONE} when not given); the rules
   * lay it over the file's with {@link ResponseConfig#over}.
   */
  public ResponseConfig response() {
    return response;
  }

  /** {@code penalty}, or null. */
  public PenaltyConfig penalty() {
    return penalty;
  }

  /** A builder for rules made in code (tests, defaults); the parser uses it too. */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** The rule's unique name; shows in logs, headers, metrics and the 429 body. */
  public String name() {
    return name;
  }

  /** The line of the rule's list item in the rules file (0 when built in code). */
  public int line() {
    return line;
  }

  /**
   * The line of a key in this rule, such as {@code "limit"} or {@code "match.path"}; {@link #line()}
   * when the key was not written.
   */
  public int lineOf(String key) {
    Integer l = keyLines.get(key);
    return l == null ? line : l;
  }

  /** {@code match.path}: globs as written; empty = every path. */
  public List<String> paths() {
    return paths;
  }

  /** {@link #paths()} compiled, in the same order. */
  public List<PathGlob> pathGlobs() {
    return pathGlobs;
  }

  /** Whether any of the path globs matches (true when there are none). */
  public boolean matchesPath(String normalizedPath) {
    if (pathGlobs.isEmpty()) {
      return true;
    }
    for (int i = 0; i < pathGlobs.size(); i++) {
      if (pathGlobs.get(i).matches(normalizedPath)) {
        return true;
      }
    }
    return false;
  }

  /** {@code match.methods}, upper-case; empty = any method. */
  public Set<String> methods() {
    return methods;
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

  /** {@code match.route}: a route template such as {@code /api/orders/{id}}, or null. */
  public String route() {
    return route;
  }

  /**
   * {@code key}: the parts of the rate-limit key, e.g. {@code ["ip"]}, {@code ["header:X-Api-Key"]}
   * or {@code ["ip", "param:username"]}; default {@code ["ip"]}. The part type (before ':') is lower
   * case; names are as written.
   */
  public List<String> key() {
    return key;
  }

  /** {@code key-normalize}; null = not set. */
  public Boolean keyNormalize() {
    return keyNormalize;
  }

  /**
   * {@code key-normalize} with its documented default: on for login-style rules, whose key has a
   * client-written text part ({@code param:}) and that count failed logins ({@code count-when}
   * with 401 or 403) or are keyed by a user-name-like parameter ({@code username}, {@code email},
   * {@code login}...); off otherwise.
   */
  public boolean keyNormalizeOrDefault() {
    if (keyNormalize != null) {
      return keyNormalize;
    }
    boolean textKey = false;
    boolean userNameKey = false;
    for (String part : key) {
      if (isTextKeyPart(part)) {
        textKey = true;
        String name = part.substring(part.indexOf(':') + 1).toLowerCase(Locale.ROOT)
            .replace("-", "").replace("_", "").replace(".", "");
        for (String word : USER_NAME_WORDS) {
          if (name.equals(word) || name.endsWith(word)) {
            userNameKey = true;
          }
        }
      }
    }
    boolean countsFailedLogins =
        countWhen != null && (countWhen.counts(401) || countWhen.counts(403));
    return textKey && (userNameKey || countsFailedLogins);
  }

  /** A key part whose value a client writes as free text: param: (and query:, form:). */
  private static boolean isTextKeyPart(String part) {
    int colon = part.indexOf(':');
    if (colon < 0) {
      return false;
    }
    String kind = part.substring(0, colon);
    return !kind.equals("header") && !kind.equals("cookie");
  }

  /** {@code algorithm}; default token-bucket. */
  public AlgorithmKind algorithm() {
    return algorithm;
  }

  /** {@code limit}: requests (or cost units) per period; positive. */
  public long limit() {
    return limit;
  }

  /** {@code period} in nanoseconds; positive. */
  public long periodNanos() {
    return periodNanos;
  }

  /** {@code burst}: token bucket capacity; default = limit. */
  public long burst() {
    return burst;
  }

  /** {@code cost}: default 1 for every request. */
  public CostConfig cost() {
    return cost;
  }

  /** {@code on-failure}; default allow. */
  public OnFailure onFailure() {
    return onFailure;
  }

  /** {@code mode}; null = follow the global mode. */
  public Mode mode() {
    return mode;
  }

  /** This rule's mode, or the global one when the rule does not set it. */
  public Mode effectiveMode(Mode global) {
    return mode != null ? mode : global;
  }

  /** {@code quota-headers}; null = not set. */
  public Boolean quotaHeaders() {
    return quotaHeaders;
  }

  /** {@code partition-key}: the RateLimit fields carry the draft's {@code pk} (default false). */
  public boolean partitionKey() {
    return partitionKey;
  }

  /**
   * {@code quota-headers} with its documented default: true, except for rules whose paths or route
   * look like login-style endpoints (login, signin, otp, password, token, auth,
   * j_security_check), where it is false.
   */
  public boolean quotaHeadersOrDefault() {
    if (algorithm == AlgorithmKind.ADAPTIVE_CONCURRENCY) {
      return false; // its limit moves every window: no quota to tell
    }
    if (quotaHeaders != null) {
      return quotaHeaders;
    }
    return !isLoginStyle();
  }

  private boolean isLoginStyle() {
    List<String> all = new ArrayList<>(paths);
    if (route != null) {
      all.add(route);
    }
    for (String p : all) {
      String lower = p.toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
      for (String word : LOGIN_STYLE_WORDS) {
        if (lower.contains(word)) {
          return true;
        }
      }
    }
    return false;
  }

  /** {@code max-keys}: how many keys this rule tracks locally; default 100000. */
  public long maxKeys() {
    return maxKeys;
  }

  /**
   * Two rules are equal when they would limit the same way: every setting is compared, where they were
   * written (lines) is not. Lets a reload keep the state of rules that did not change.
   */
  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof RuleConfig)) {
      return false;
    }
    RuleConfig r = (RuleConfig) o;
    return limit == r.limit
        && periodNanos == r.periodNanos
        && burst == r.burst
        && maxKeys == r.maxKeys
        && name.equals(r.name)
        && paths.equals(r.paths)
        && methods.equals(r.methods)
        && Objects.equals(route, r.route)
        && hosts.equals(r.hosts)
        && headers.equals(r.headers)
        && Objects.equals(skip, r.skip)
        && key.equals(r.key)
        && Objects.equals(keyNormalize, r.keyNormalize)
        && algorithm == r.algorithm
        && cost.equals(r.cost)
        && onFailure == r.onFailure
        && mode == r.mode
        && Objects.equals(quotaHeaders, r.quotaHeaders)
        && partitionKey == r.partitionKey
        && limits.equals(r.limits)
        && maxDelayNanos == r.maxDelayNanos
        && calendar == r.calendar
        && Objects.equals(timeZone, r.timeZone)
        && Objects.equals(costHeader, r.costHeader)
        && Objects.equals(countWhen, r.countWhen)
        && Objects.equals(keyFallback, r.keyFallback)
        && Objects.equals(plans, r.plans)
        && allow.equals(r.allow)
        && Objects.equals(penalty, r.penalty)
        && response.equals(r.response)
        && adaptiveMin == r.adaptiveMin
        && adaptiveInitial == r.adaptiveInitial
        && adaptiveMax == r.adaptiveMax
        && maxWaitNanos == r.maxWaitNanos
        && perClientPercent == r.perClientPercent
        && perClientKey.equals(r.perClientKey);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, paths, methods, route, hosts, headers, skip, key, keyNormalize, algorithm, limit,
        periodNanos, burst, cost, onFailure, mode, quotaHeaders, partitionKey, maxKeys, limits, maxDelayNanos, calendar,
        timeZone,
        costHeader, countWhen, plans, allow, penalty, response, adaptiveMin, adaptiveInitial,
        adaptiveMax, maxWaitNanos, perClientPercent, perClientKey);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("RuleConfig{name=").append(name);
    if (!paths.isEmpty()) {
      sb.append(", paths=").append(paths);
    }
    if (!methods.isEmpty()) {
      sb.append(", methods=").append(methods);
    }
    if (route != null) {
      sb.append(", route=").append(route);
    }
    if (!hosts.isEmpty()) {
      sb.append(", hosts=").append(hosts);
    }
    if (!headers.isEmpty()) {
      sb.append(", headers=").append(headers);
    }
    if (skip != null) {
      sb.append(", skip=").append(skip);
    }
    sb.append(", key=").append(key);
    if (keyNormalize != null) {
      sb.append(", key-normalize=").append(keyNormalize);
    }
    sb.append(", algorithm=").append(algorithm.yamlName());
    sb.append(", limit=").append(limit);
    sb.append(", period=").append(Durations.format(periodNanos));
    sb.append(", burst=").append(burst);
    sb.append(", cost=").append(cost);
    sb.append(", on-failure=").append(onFailure.yamlName());
    if (mode != null) {
      sb.append(", mode=").append(mode.yamlName());
    }
    if (quotaHeaders != null) {
      sb.append(", quota-headers=").append(quotaHeaders);
    }
    if (partitionKey) {
      sb.append(", partition-key=true");
    }
    sb.append(", max-keys=").append(maxKeys);
    if (limits.size() > 1) {
      sb.append(", limits=").append(limits);
    }
    if (maxDelayNanos > 0) {
      sb.append(", max-delay=").append(Durations.format(maxDelayNanos));
    }
    if (calendar != null) {
      sb.append(", calendar=").append(calendar.name().toLowerCase(Locale.ROOT));
      sb.append(", time-zone=").append(timeZone);
    }
    if (costHeader != null) {
      sb.append(", cost-header=").append(costHeader);
    }
    if (countWhen != null) {
      sb.append(", count-when=").append(countWhen);
    }
    if (plans != null) {
      sb.append(", plans=").append(plans);
    }
    if (!allow.isEmpty()) {
      sb.append(", allow=").append(allow);
    }
    if (penalty != null) {
      sb.append(", penalty=").append(penalty);
    }
    if (response != ResponseConfig.NONE) {
      sb.append(", response=").append(response);
    }
    if (algorithm == AlgorithmKind.ADAPTIVE_CONCURRENCY) {
      sb.append(", min=").append(adaptiveMin).append(", initial=").append(adaptiveInitial)
          .append(", max=").append(adaptiveMax);
      if (maxWaitNanos > 0) {
        sb.append(", max-wait=").append(Durations.format(maxWaitNanos));
      }
    }
    if (perClientPercent > 0) {
      sb.append(", per-client=").append(perClientPercent).append("% of ").append(perClientKey);
    }
    return sb.append('}').toString();
  }

  /** Builds a {@link RuleConfig}; unset values take their defaults. */
  public static final class Builder {
    private final String name;
    private int line;
    private final Map<String, Integer> keyLines = new HashMap<>();
    private List<String> paths = Collections.emptyList();
    private Set<String> methods = Collections.emptySet();
    private String route;
    private List<String> hosts = Collections.emptyList();
    private Map<String, String> headers = Collections.emptyMap();
    private RequestConditions skip;
    private List<String> key = Collections.emptyList();
    private Boolean keyNormalize;
    private AlgorithmKind algorithm;
    private long limit;
    private long periodNanos;
    private long burst;
    private CostConfig cost;
    private OnFailure onFailure;
    private Mode mode;
    private Boolean quotaHeaders;
    private boolean partitionKey;
    private long maxKeys;
    private List<LimitConfig> limits;
    private long maxDelayNanos;
    private CalendarQuota.Unit calendar;
    private ZoneId timeZone;
    private String costHeader;
    private CountWhen countWhen;
    private List<String> keyFallback;
    private PlansConfig plans;
    private AllowConfig allow;
    private PenaltyConfig penalty;
    private ResponseConfig response;
    private int adaptiveMin;
    private int adaptiveInitial;
    private int adaptiveMax;
    private long maxWaitNanos;
    private int perClientPercent;
    private List<String> perClientKey;

    private Builder(String name) {
      this.name = name;
    }

    public Builder line(int line) {
      this.line = line;
      return this;
    }

    public Builder keyLine(String key, int line) {
      keyLines.put(key, line);
      return this;
    }

    public Builder paths(List<String> paths) {
      this.paths = paths;
      return this;
    }

    public Builder methods(Set<String> methods) {
      this.methods = methods;
      return this;
    }

    public Builder route(String route) {
      this.route = route;
      return this;
    }

    /** {@code match.hosts}, lower-case, without ports. */
    public Builder hosts(List<String> hosts) {
      this.hosts = hosts;
      return this;
    }

    /** {@code match.headers}, names lower-case. */
    public Builder headers(Map<String, String> headers) {
      this.headers = headers;
      return this;
    }

    public Builder skip(RequestConditions skip) {
      this.skip = skip;
      return this;
    }

    public Builder key(List<String> key) {
      this.key = key;
      return this;
    }

    /** {@code key-normalize}; null for its default. */
    public Builder keyNormalize(Boolean keyNormalize) {
      this.keyNormalize = keyNormalize;
      return this;
    }

    public Builder keyFallback(List<String> keyFallback) {
      this.keyFallback = keyFallback;
      return this;
    }

    public Builder algorithm(AlgorithmKind algorithm) {
      this.algorithm = algorithm;
      return this;
    }

    public Builder limit(long limit) {
      this.limit = limit;
      return this;
    }

    public Builder periodNanos(long periodNanos) {
      this.periodNanos = periodNanos;
      return this;
    }

    public Builder burst(long burst) {
      this.burst = burst;
      return this;
    }

    public Builder cost(CostConfig cost) {
      this.cost = cost;
      return this;
    }

    public Builder onFailure(OnFailure onFailure) {
      this.onFailure = onFailure;
      return this;
    }

    public Builder mode(Mode mode) {
      this.mode = mode;
      return this;
    }

    public Builder quotaHeaders(Boolean quotaHeaders) {
      this.quotaHeaders = quotaHeaders;
      return this;
    }

    public Builder partitionKey(boolean partitionKey) {
      this.partitionKey = partitionKey;
      return this;
    }

    public Builder maxKeys(long maxKeys) {
      this.maxKeys = maxKeys;
      return this;
    }

    /** Several limits at once; the first also stands as limit/period/burst. */
    public Builder limits(List<LimitConfig> limits) {
      this.limits = limits;
      return this;
    }

    public Builder maxDelayNanos(long maxDelayNanos) {
      this.maxDelayNanos = maxDelayNanos;
      return this;
    }

    /** A calendar quota: the period is the calendar unit, in {@code zone} (null: UTC). */
    public Builder calendar(CalendarQuota.Unit calendar, ZoneId zone) {
      this.calendar = calendar;
      this.timeZone = zone;
      if (calendar != null && this.periodNanos <= 0) {
        this.periodNanos = CALENDAR_NOMINAL_DAYS[calendar.ordinal()] * 86_400_000_000_000L;
      }
      return this;
    }

    public Builder costHeader(String costHeader) {
      this.costHeader = costHeader;
      return this;
    }

    public Builder countWhen(CountWhen countWhen) {
      this.countWhen = countWhen;
      return this;
    }

    public Builder plans(PlansConfig plans) {
      this.plans = plans;
      return this;
    }

    public Builder allow(AllowConfig allow) {
      this.allow = allow;
      return this;
    }

    public Builder penalty(PenaltyConfig penalty) {
      this.penalty = penalty;
      return this;
    }

    public Builder response(ResponseConfig response) {
      this.response = response;
      return this;
    }

    /**
     * The bounds, start and {@code max-wait} of adaptive-concurrency (sets the algorithm, and
     * {@code max} as the limit, over a nominal second, unless a limit is set).
     */
    public Builder adaptive(int min, int initial, int max, long maxWaitNanos) {
      this.algorithm = AlgorithmKind.ADAPTIVE_CONCURRENCY;
      this.adaptiveMin = min;
      this.adaptiveInitial = initial;
      this.adaptiveMax = max;
      this.maxWaitNanos = maxWaitNanos;
      if (limit <= 0) {
        limit = max;
      }
      if (periodNanos <= 0) {
        periodNanos = 1_000_000_000L;
      }
      return this;
    }

    /** {@code per-client} in percent (0 = off) and {@code per-client-key} (null = ip). */
    public Builder perClient(int percent, List<String> key) {
      this.perClientPercent = percent;
      this.perClientKey = key;
      return this;
    }

    /**
     * @throws IllegalArgumentException when limit or period is not positive, or a path glob is bad
     */
    public RuleConfig build() {
      return new RuleConfig(this);
    }
  }
}
