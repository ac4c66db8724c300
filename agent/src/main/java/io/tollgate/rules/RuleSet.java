package io.tollgate.rules;

import io.tollgate.config.HeadersMode;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The rules in force, in file order. Immutable (but for one answer the engine notes on it, {@link
 * #storesMayHold}); a reload swaps in a new one.
 */
public final class RuleSet {

  public static final RuleSet EMPTY = new RuleSet(Collections.emptyList(), null, HeadersMode.DRAFT, false);

  private final Rule[] rules;
  /**
   * The first rule (null when none) and how many: what a request with one rule reads, kept in
   * this object so that it does not touch the array's own cache line (see {@link #get}).
   */
  private final Rule first;
  private final int size;
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
  /**
   * Whether a store of these rules may hold a request, as the engine found when it first asked
   * ({@link #STORES_MAY_HOLD_UNKNOWN} until then): kept here, in the object every request reads
   * anyway, rather than in one of its own. Racing threads find the same answer.
   */
  private byte storesMayHold = STORES_MAY_HOLD_UNKNOWN;

  public static final byte STORES_MAY_HOLD_UNKNOWN = 0;
  public static final byte STORES_MAY_NOT_HOLD = 1;
  public static final byte STORES_MAY_HOLD = 2;
  /** Which rules a path may match; null for a short file, which is scanned in full. */
  private final RulePathIndex pathIndex;
  /**
   * For a short file, the positions from each rule on: {@code fromPosition[i]} is {@code i, i+1,
   * ..., size-1}, what {@link #rulesOnPath} answers, without a new array, when rule {@code i} is
   * the first whose paths match.
   */
  private final int[][] fromPosition;

  /**
   * {@link #rulesOnPath}'s answer when no rule can apply to the path at any entry point. Told by
   * identity: an empty array of the index's (with a route rule in force) is not this one.
   */
  public static final int[] NO_RULE = new int[0];

  /**
   * Up to this many rules, every request checks each of them: a scan of a few rules costs less
   * than the index's walk, which splits the path.
   */
  static final int SCANNED_UP_TO = 16;

  RuleSet(List<Rule> rules, String source, HeadersMode headers, boolean trustsNoProxy) {
    this.trustsNoProxy = trustsNoProxy;
    this.headers = headers;
    this.rules = rules.toArray(new Rule[0]);
    this.size = this.rules.length;
    this.first = size == 0 ? null : this.rules[0];
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
    this.fromPosition = pathIndex == null ? suffixes(size) : null;
  }

  private static int[][] suffixes(int size) {
    int[][] from = new int[size][];
    for (int i = 0; i < size; i++) {
      from[i] = new int[size - i];
      for (int j = i; j < size; j++) {
        from[i][j - i] = j;
      }
    }
    return from;
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
   * The rules that may apply to a request on {@code normalizedPath}, found once for both of an
   * outermost entry point's questions (issue 29 item 2). {@link #NO_RULE} when no rule in force can
   * apply to it at any entry point it passes: no rule's paths match it, by any method ({@link
   * Rule#mayApplyOnPath}; a rule that lists methods may still match by an override the
   * application honours), and no rule waits for a route template, which only a framework's handler
   * knows; then the entry point lets the request go, having read nothing else of it. Otherwise the
   * rules its decision matches in full, in file order (positions for {@link #get}), so that the
   * decision neither normalizes nor looks them up again, nor matches the rules before the first one
   * on the path. Allocates nothing but what the index's look-up does: a short file answers with a
   * shared array, a long one with the index's candidates. Never null; the array must not be changed.
   */
  public int[] rulesOnPath(String normalizedPath) {
    int[] candidates = candidatesFor(normalizedPath);
    if (hasRouteRules) {
      // every request is looked at: only a framework's handler knows its route
      return candidates == null ? fromPosition[0] : candidates;
    }
    for (int c = 0, n = candidates == null ? size : candidates.length; c < n; c++) {
      int position = candidates == null ? c : candidates[c];
      if (get(position).mayApplyOnPath(normalizedPath)) {
        return candidates == null ? fromPosition[position] : candidates;
      }
    }
    return NO_RULE;
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

  /**
   * What the engine noted with {@link #noteStoresMayHold}: {@link #STORES_MAY_HOLD}, {@link
   * #STORES_MAY_NOT_HOLD}, or {@link #STORES_MAY_HOLD_UNKNOWN} before it did.
   */
  public byte storesMayHold() {
    return storesMayHold;
  }

  /** Notes whether a store of these rules may hold a request (the engine works it out once). */
  public void noteStoresMayHold(boolean mayHold) {
    storesMayHold = mayHold ? STORES_MAY_HOLD : STORES_MAY_NOT_HOLD;
  }

  /** Whether some rule waits for a framework's route template (Spring MVC, JAX-RS). */
  public boolean hasRouteRules() {
    return hasRouteRules;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** How many rules; with {@link #get}, a walk over them that allocates no iterator. */
  public int size() {
    return size;
  }

  /**
   * The rule at {@code index} in file order. The first is read from this object's own field: a
   * request that one rule decides (the common case) reads the rule set and its rule, not the
   * array between them, which the network work between two requests has evicted from the caches.
   */
  public Rule get(int index) {
    return index == 0 && first != null ? first : rules[index];
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
