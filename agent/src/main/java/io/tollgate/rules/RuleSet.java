package io.tollgate.rules;

import io.tollgate.config.HeadersMode;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The rules in force, in file order. Immutable; a reload swaps in a new one. */
public final class RuleSet {

  public static final RuleSet EMPTY = new RuleSet(Collections.emptyList(), null, HeadersMode.DRAFT, false);

  private final Rule[] rules;
  private final List<Rule> ruleList;
  /**
   * The rules by name: a reload looks up each new rule's predecessor, and a scan for each would
   * cost a file of 10,000 rules 50 million comparisons (seconds of a core beside the requests).
   */
  private final Map<String, Rule> byName;
  private final String source;
  private final HeadersMode headers;
  private final boolean hasRouteRules;
  private final boolean hasPrincipalRules;
  private final boolean hasBodyRules;
  private final boolean hasMethodRules;

  private final boolean trustsNoProxy;
  /** Which rules a path may match; null for a short file, which is scanned in full. */
  private final RulePathIndex pathIndex;

  /**
   * Up to this many rules, every request checks each of them: a scan of a few rules costs less
   * than the index's walk, which splits the path.
   */
  static final int SCANNED_UP_TO = 16;

  RuleSet(List<Rule> rules, String source, HeadersMode headers, boolean trustsNoProxy) {
    this.trustsNoProxy = trustsNoProxy;
    this.headers = headers;
    this.rules = rules.toArray(new Rule[0]);
    this.ruleList = Collections.unmodifiableList(rules);
    this.source = source;
    this.byName = new HashMap<>(this.rules.length * 4 / 3 + 1);
    for (Rule rule : this.rules) {
      byName.putIfAbsent(rule.name(), rule);
    }
    boolean route = false;
    boolean principal = false;
    boolean method = false;
    boolean body = false;
    for (Rule rule : this.rules) {
      route |= rule.needsRoute();
      principal |= rule.keyNeedsPrincipal();
      method |= rule.matchesByMethod();
      body |= rule.keyMayNeedBody();
    }
    this.hasMethodRules = method;
    this.hasRouteRules = route;
    this.hasPrincipalRules = principal;
    this.hasBodyRules = body;
    this.pathIndex = this.rules.length > SCANNED_UP_TO ? RulePathIndex.of(this.rules) : null;
  }

  /**
   * The positions ({@link #get}) of the rules that may match {@code normalizedPath}, in file
   * order, or null when every rule is to be checked. Each candidate must still be matched: the
   * index only leaves out rules whose paths cannot match. The array must not be changed.
   */
  public int[] candidatesFor(String normalizedPath) {
    return pathIndex == null ? null : pathIndex.candidates(normalizedPath);
  }

  /**
   * Whether some rule lists methods: then a framework's handler point checks whether the
   * application overrode the request's method ({@code _method}) into one of them.
   */
  public boolean hasMethodRules() {
    return hasMethodRules;
  }

  /** Whether a rule's key has the authenticated user as a part. */
  public boolean hasPrincipalRules() {
    return hasPrincipalRules;
  }

  /** Whether a rule's key may be a form body's field ({@code param:}, {@code form:}). */
  public boolean hasBodyRules() {
    return hasBodyRules;
  }

  /**
   * Whether client addresses are the socket peer's because no proxy is trusted: then a forwarding
   * header in a request hints at a misconfiguration.
   */
  public boolean trustsNoProxy() {
    return trustsNoProxy;
  }

  /** Whether some rule waits for a framework's route template (Spring MVC, JAX-RS). */
  public boolean hasRouteRules() {
    return hasRouteRules;
  }

  public boolean isEmpty() {
    return rules.length == 0;
  }

  /** How many rules; with {@link #get}, a walk over them that allocates no iterator. */
  public int size() {
    return rules.length;
  }

  public Rule get(int index) {
    return rules[index];
  }

  public List<Rule> rules() {
    return ruleList;
  }

  /** The rule named {@code name} (names are unique in a file), or null. */
  public Rule find(String name) {
    return name == null ? null : byName.get(name);
  }

  /** Which quota headers responses carry. */
  public HeadersMode headers() {
    return headers;
  }

  /** The file these rules came from, or null. */
  public String source() {
    return source;
  }
}
