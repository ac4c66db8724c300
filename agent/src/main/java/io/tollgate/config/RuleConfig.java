package io.tollgate.config;

import io.tollgate.limiters.AlgorithmKind;
import io.tollgate.limiters.CalendarQuota;
import io.tollgate.limiters.LimitSpec;
import java.time.ZoneId;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One validated entry of {@code rules}: its name, where it is written, and its settings in parts,
 * each a small value ({@link RuleMatch}, {@link Keying}, {@link Counting}, {@link
 * AdaptiveSettings}, {@link PerClientSettings}, {@link Charging}, {@link Enforcement}, {@link
 * Responding}, {@link AllowConfig}, {@link PenaltyConfig}). Immutable.
 *
 * <p>The accessors below read the parts, so that a reader need not know which part holds a
 * setting; the defaults that depend on several parts ({@link #quotaHeadersOrDefault}, {@link
 * #keyNormalizeOrDefault}) are here.
 */
public final class RuleConfig extends ConfigValue {
  /** {@code max-keys} when not given. */
  public static final long DEFAULT_MAX_KEYS = Keying.DEFAULT_MAX_KEYS;

  /** Nominal days of each {@link CalendarQuota.Unit}, in declaration order. */
  private static final long[] CALENDAR_NOMINAL_DAYS = {1, 7, 30, 365};

  /** Parameter names (or their ends: j_username, userEmail) that name an account. */
  private static final String[] USER_NAME_WORDS = {"username", "user", "userid", "login", "email",
      "mail", "account", "uid", "principal"}; // compared lower case with '-', '_' and '.' removed

  private final String name;
  /** Where the rule is written: not part of its value (see {@link #fields()}). */
  private final int line;
  private final Map<String, Integer> keyLines;
  private final RuleMatch match;
  private final Keying keying;
  private final Counting counting;
  private final AdaptiveSettings adaptive;
  private final PerClientSettings perClient;
  private final Charging charging;
  private final Enforcement enforcement;
  private final Responding responding;
  private final AllowConfig allow;
  private final PenaltyConfig penalty;

  private RuleConfig(Builder b) {
    this.name = Objects.requireNonNull(b.name, "name");
    this.line = b.line;
    this.keyLines = Collections.unmodifiableMap(b.keyLinesForBuild());
    this.match = new RuleMatch(b.paths, b.methods, b.route, b.hosts, b.headers, b.skip);
    this.keying = new Keying(b.key, b.keyNormalize, b.keyFallback, b.maxKeys);
    this.counting =
        new Counting(
            b.algorithm, limitsOf(b), b.plans, b.maxDelayNanos, b.calendar, b.timeZone);
    this.adaptive =
        new AdaptiveSettings(b.adaptiveMin, b.adaptiveInitial, b.adaptiveMax, b.maxWaitNanos);
    this.perClient = new PerClientSettings(b.perClientPercent, b.perClientKey);
    this.charging = new Charging(b.cost, b.costHeader, b.countWhen);
    this.enforcement = new Enforcement(b.mode, b.onFailure);
    this.responding = new Responding(b.quotaHeaders, b.partitionKey, b.response);
    this.allow = b.allow == null ? AllowConfig.NONE : b.allow;
    this.penalty = b.penalty;
  }

  /**
   * The rule's limits: those listed, or the one limit/period/burst; with plans, the default plan's
   * first.
   *
   * @throws IllegalArgumentException when limit or period is not positive
   */
  private static List<LimitSpec> limitsOf(Builder b) {
    if (b.plans != null) {
      return Collections.singletonList(b.plans.limits().get(b.plans.defaultPlan()).get(0));
    }
    if (b.limits != null && !b.limits.isEmpty()) {
      return b.limits;
    }
    return Collections.singletonList(new LimitSpec(b.limit, b.periodNanos, b.burst > 0 ? b.burst : b.limit));
  }

  /**
   * What the rule's value is: its name and every part; not where it is written (its lines). Two
   * rules are equal when they would limit the same way, and a reload keeps the state of rules
   * that did not change.
   */
  @Override
  Object[] fields() {
    return new Object[] {
      name, match, keying, counting, adaptive, perClient, charging, enforcement, responding, allow,
      penalty
    };
  }

  /** {@code match:} and {@code skip:}: which requests the rule counts. */
  public RuleMatch match() {
    return match;
  }

  /** {@code key}, {@code key-normalize}, {@code key-fallback}, {@code max-keys}. */
  public Keying keying() {
    return keying;
  }

  /** {@code algorithm} and the limits, with max-delay and calendar. */
  public Counting counting() {
    return counting;
  }

  /** The settings of adaptive-concurrency (zeros for the other algorithms). */
  public AdaptiveSettings adaptive() {
    return adaptive;
  }

  /** {@code per-client} and {@code per-client-key}. */
  public PerClientSettings perClient() {
    return perClient;
  }

  /** {@code cost}, {@code cost-header}, {@code count-when}. */
  public Charging charging() {
    return charging;
  }

  /** {@code mode} and {@code on-failure}. */
  public Enforcement enforcement() {
    return enforcement;
  }

  /** {@code quota-headers}, {@code partition-key} and the rule's {@code response}. */
  public Responding responding() {
    return responding;
  }

  /**
   * {@code per-client} of the concurrency algorithms: the most of the permits one client key may
   * hold, in percent (1 to 100), or 0 when off. Its default (50 on a rule keyed {@code global},
   * else off) is filled in by the parser.
   */
  public int perClientPercent() {
    return perClient.percent();
  }

  /** {@code per-client-key}: what tells one client from another for {@link #perClientPercent}. */
  public List<String> perClientKey() {
    return perClient.key();
  }

  /** {@code min} of adaptive-concurrency (its default filled in); 0 for other algorithms. */
  public int adaptiveMin() {
    return adaptive.min();
  }

  /** {@code initial} of adaptive-concurrency (its default filled in); 0 for other algorithms. */
  public int adaptiveInitial() {
    return adaptive.initial();
  }

  /** {@code max} of adaptive-concurrency (its default filled in); 0 for other algorithms. */
  public int adaptiveMax() {
    return adaptive.max();
  }

  /** {@code max-wait} of adaptive-concurrency; 0 = refuse at once. */
  public long maxWaitNanos() {
    return adaptive.maxWaitNanos();
  }

  /**
   * The rule's limits: {@code limits}, or the one {@code limit}/{@code period}/{@code burst}. With
   * {@link #plans()}, the default plan's limits are in the plans instead, and this is its first.
   */
  public List<LimitSpec> limits() {
    return counting.limits();
  }

  /** {@code max-delay} of the gcra algorithm; 0 = refuse rather than delay. */
  public long maxDelayNanos() {
    return counting.maxDelayNanos();
  }

  /** {@code calendar}: the calendar unit of a calendar quota, or null. */
  public CalendarQuota.Unit calendar() {
    return counting.calendar();
  }

  /** {@code time-zone} of a calendar quota (UTC when not given); null without a calendar. */
  public ZoneId timeZone() {
    return counting.timeZone();
  }

  /** {@code cost-header}: the response header that corrects the cost, or null. */
  public String costHeader() {
    return charging.costHeader();
  }

  /**
   * {@code count-when}: the response statuses that count; a request that ends with another has
   * its charge given back. Null: every request counts.
   */
  public CountWhen countWhen() {
    return charging.countWhen();
  }

  /**
   * The key for requests that lack {@link #key()} (for example {@code ip} when there is no API key
   * header), or null: such requests are then not counted by this rule.
   */
  public List<String> keyFallback() {
    return keying.fallback();
  }

  /** {@code plans}, or null. */
  public PlansConfig plans() {
    return counting.plans();
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
    return responding.refusal();
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
    return match.paths();
  }

  /** {@link #paths()} compiled once, when the rule was read. */
  public List<PathGlob> pathGlobs() {
    return match.pathGlobs();
  }

  /** Whether any of the path globs matches (true when there are none). */
  public boolean matchesPath(String normalizedPath) {
    return match.matchesPath(normalizedPath);
  }

  /** {@code match.methods}, upper-case; empty = any method. */
  public Set<String> methods() {
    return match.methods();
  }

  /** {@code match.hosts}: host globs, lower-case, without a port; empty = any host. */
  public List<String> hosts() {
    return match.hosts();
  }

  /**
   * {@code match.headers}: header name (lower-case) to {@link RequestConditions#PRESENT},
   * {@link RequestConditions#ABSENT} or a value glob; empty = no condition.
   */
  public Map<String, String> headers() {
    return match.headers();
  }

  /** {@code skip:}: requests the rule never counts, or null. */
  public RequestConditions skip() {
    return match.skip();
  }

  /** {@code match.route}: a route template such as {@code /api/orders/{id}}, or null. */
  public String route() {
    return match.route();
  }

  /**
   * {@code key}: the parts of the rate-limit key, e.g. {@code ["ip"]}, {@code ["header:X-Api-Key"]}
   * or {@code ["ip", "param:username"]}; default {@code ["ip"]}. The part type (before ':') is lower
   * case; names are as written.
   */
  public List<String> key() {
    return keying.key();
  }

  /** {@code key-normalize}; null = not set. */
  public Boolean keyNormalize() {
    return keying.normalize();
  }

  /**
   * {@code key-normalize} with its documented default: on for login-style rules, whose key has a
   * client-written text part ({@code param:}) and that count failed logins ({@code count-when}
   * with 401 or 403) or are keyed by a user-name-like parameter ({@code username}, {@code email},
   * {@code login}...); off otherwise.
   */
  public boolean keyNormalizeOrDefault() {
    if (keyNormalize() != null) {
      return keyNormalize();
    }
    boolean textKey = false;
    boolean userNameKey = false;
    for (String part : key()) {
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
        countWhen() != null && (countWhen().counts(401) || countWhen().counts(403));
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
    return counting.algorithm();
  }

  /** {@code limit}: requests (or cost units) per period; positive. */
  public long limit() {
    return counting.first().limit();
  }

  /** {@code period} in nanoseconds; positive. */
  public long periodNanos() {
    return counting.first().periodNanos();
  }

  /** {@code burst}: token bucket capacity; default = limit. */
  public long burst() {
    return counting.first().burst();
  }

  /** {@code cost}: default 1 for every request. */
  public CostConfig cost() {
    return charging.cost();
  }

  /** {@code on-failure}; default allow. */
  public OnFailure onFailure() {
    return enforcement.onFailure();
  }

  /** {@code mode}; null = follow the global mode. */
  public Mode mode() {
    return enforcement.mode();
  }

  /** This rule's mode, or the global one when the rule does not set it. */
  public Mode effectiveMode(Mode global) {
    return mode() != null ? mode() : global;
  }

  /** {@code quota-headers}; null = not set. */
  public Boolean quotaHeaders() {
    return responding.quotaHeaders();
  }

  /** {@code partition-key}: the RateLimit fields carry the draft's {@code pk} (default false). */
  public boolean partitionKey() {
    return responding.partitionKey();
  }

  /**
   * {@code quota-headers} with its documented default: true, except for rules whose paths or route
   * look like login-style endpoints (login, signin, otp, password, token, auth,
   * j_security_check), where it is false.
   */
  public boolean quotaHeadersOrDefault() {
    if (algorithm() == AlgorithmKind.ADAPTIVE_CONCURRENCY) {
      return false; // its limit moves every window: no quota to tell
    }
    if (quotaHeaders() != null) {
      return quotaHeaders();
    }
    return !isLoginStyle();
  }

  private boolean isLoginStyle() {
    for (String p : paths()) {
      if (LoginStyleWords.in(p)) {
        return true;
      }
    }
    return route() != null && LoginStyleWords.in(route());
  }

  /** {@code max-keys}: how many keys this rule tracks locally; default 100000. */
  public long maxKeys() {
    return keying.maxKeys();
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("RuleConfig{name=").append(name);
    if (!paths().isEmpty()) {
      sb.append(", paths=").append(paths());
    }
    if (!methods().isEmpty()) {
      sb.append(", methods=").append(methods());
    }
    if (route() != null) {
      sb.append(", route=").append(route());
    }
    if (!hosts().isEmpty()) {
      sb.append(", hosts=").append(hosts());
    }
    if (!headers().isEmpty()) {
      sb.append(", headers=").append(headers());
    }
    if (skip() != null) {
      sb.append(", skip=").append(skip());
    }
    sb.append(", key=").append(key());
    if (keyNormalize() != null) {
      sb.append(", key-normalize=").append(keyNormalize());
    }
    sb.append(", algorithm=").append(algorithm().yamlName());
    sb.append(", limit=").append(limit());
    sb.append(", period=").append(Durations.format(periodNanos()));
    sb.append(", burst=").append(burst());
    sb.append(", cost=").append(cost());
    sb.append(", on-failure=").append(onFailure().yamlName());
    if (mode() != null) {
      sb.append(", mode=").append(mode().yamlName());
    }
    if (quotaHeaders() != null) {
      sb.append(", quota-headers=").append(quotaHeaders());
    }
    if (partitionKey()) {
      sb.append(", partition-key=true");
    }
    sb.append(", max-keys=").append(maxKeys());
    if (limits().size() > 1) {
      sb.append(", limits=").append(Durations.format(limits()));
    }
    if (maxDelayNanos() > 0) {
      sb.append(", max-delay=").append(Durations.format(maxDelayNanos()));
    }
    if (calendar() != null) {
      sb.append(", calendar=").append(calendar().name().toLowerCase(Locale.ROOT));
      sb.append(", time-zone=").append(timeZone());
    }
    if (costHeader() != null) {
      sb.append(", cost-header=").append(costHeader());
    }
    if (countWhen() != null) {
      sb.append(", count-when=").append(countWhen());
    }
    if (plans() != null) {
      sb.append(", plans=").append(plans());
    }
    if (!allow().isEmpty()) {
      sb.append(", allow=").append(allow());
    }
    if (penalty() != null) {
      sb.append(", penalty=").append(penalty());
    }
    if (response() != ResponseConfig.NONE) {
      sb.append(", response=").append(response());
    }
    if (algorithm() == AlgorithmKind.ADAPTIVE_CONCURRENCY) {
      sb.append(", min=").append(adaptiveMin()).append(", initial=").append(adaptiveInitial())
          .append(", max=").append(adaptiveMax());
      if (maxWaitNanos() > 0) {
        sb.append(", max-wait=").append(Durations.format(maxWaitNanos()));
      }
    }
    if (perClientPercent() > 0) {
      sb.append(", per-client=").append(perClientPercent()).append("% of ").append(perClientKey());
    }
    return sb.append('}').toString();
  }

  /** Builds a {@link RuleConfig}; unset values take their defaults. */
  public static final class Builder {
    private final String name;
    private int line;
    /**
     * The keys' lines; a map that a built rule may hold too when {@link #keyLinesBuilt}, which
     * the next line added copies first.
     */
    private Map<String, Integer> keyLines = Collections.emptyMap();
    private boolean keyLinesBuilt;
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
    private List<LimitSpec> limits;
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
      ownKeyLines().put(key, line);
      return this;
    }

    /** {@link #keyLines}, a map of this builder's own to add to. */
    private Map<String, Integer> ownKeyLines() {
      if (keyLinesBuilt || keyLines.isEmpty()) {
        keyLines = new HashMap<>(keyLines);
        keyLinesBuilt = false;
      }
      return keyLines;
    }

    /** The lines for a rule built now: held by the rule, so copied before the builder adds any. */
    private Map<String, Integer> keyLinesForBuild() {
      keyLinesBuilt = true;
      return keyLines;
    }

    /**
     * Every line of {@code lines}, as {@link #keyLine} for each. Before any other line, the map
     * itself is kept, and the rule built holds it: the parser's map of a rule's lines was copied
     * twice per rule (per key, then whole), then once (at {@link #build}), ~3% of what a first
     * load of 10,000 rules allocated. The caller does not change {@code lines} afterwards.
     */
    public Builder keyLines(Map<String, Integer> lines) {
      if (keyLines.isEmpty()) {
        keyLines = lines;
        keyLinesBuilt = true; // the caller's: copied before a line is added to it
      } else {
        ownKeyLines().putAll(lines);
      }
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
    public Builder limits(List<LimitSpec> limits) {
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
