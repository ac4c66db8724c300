package io.tollgate.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.tollgate.config.ClientIpSettings;
import io.tollgate.config.CountedState;
import io.tollgate.config.CountedState.OnChange;
import io.tollgate.config.CountedState.Setting;
import io.tollgate.config.RedisSettings;
import io.tollgate.config.RuleConfig;
import io.tollgate.config.RulesConfig;
import io.tollgate.config.RulesFileParser;
import io.tollgate.limiters.Clock;
import io.tollgate.stores.redis.RedisBackend;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What a reload does to a rule's counts is what {@link CountedState} says, field by field: every
 * field of every part of a rule (and of the file's parts that keys and stores are made of) has its
 * row there, and the table below proves each row through a real reload: a {@link RuleSetFactory}
 * building the changed file with the rules built before.
 *
 * <p>A row of the table is a rules file and one change to it ({@code ^} marks a top-level line,
 * {@code +} a line after the rule, {@code -} a line removed). What it shows is the setting's row in
 * {@link CountedState}, unless the row says otherwise (a setting whose effect depends on another,
 * such as {@code mode}, which only adaptive-concurrency's algorithm embeds).
 */
@ExtendWith(RedisServerExtension.class)
class CountedStateTest {

  /** The parts whose fields are classified: a field of one of these types is classified by its own. */
  static final List<Class<?>> PARTS = partsOfARuleAndTheFile();

  static final String PENALTY = "penalty: {after: 3, within: 1m, box-for: 15m}";
  static final String TOKEN_BUCKET =
      "name: api; match: {path: /api/**}; key: ip; limit: 10; period: 1m; " + PENALTY;
  static final String GCRA = TOKEN_BUCKET + "; algorithm: gcra; max-delay: 1s";
  static final String CONCURRENCY =
      "name: api; match: {path: /api/**}; key: global; algorithm: concurrency; limit: 4;"
          + " period: 1m; per-client: 50%";
  static final String ADAPTIVE =
      "name: api; match: {path: /api/**}; key: global; algorithm: adaptive-concurrency; min: 4;"
          + " initial: 20; max: 200; max-wait: 100ms; per-client: 50%";
  static final String CALENDAR =
      "name: api; match: {path: /api/**}; key: ip; limit: 1000; calendar: day; " + PENALTY;
  static final String PLANS =
      "name: api; match: {path: /api/**}; key: header:X-Api-Key; plans: {header: X-Plan,"
          + " default: free, limits: {free: {limit: 60, period: 1h},"
          + " pro: [{limit: 20, period: 1s}, {limit: 10000, period: 1h}]}}; " + PENALTY;
  static final String API_KEY = TOKEN_BUCKET + "; key: header:X-Api-Key";
  static final String TEXT_KEY = TOKEN_BUCKET + "; key: param:q";
  static final String REDIS = "^backend: redis; ^redis: {uri: REDIS_URI}; " + TOKEN_BUCKET;

  static final List<Row> TABLE =
      Arrays.asList(
          row("RuleConfig.line", TOKEN_BUCKET, "^# a line above the rules"),
          row("RuleConfig.keyLines", TOKEN_BUCKET, "^# a line above the rules"),
          row("RuleConfig.name", TOKEN_BUCKET, "name: api-v2"),
          row("RuleConfig.name", CONCURRENCY, "name: api-v2"),
          row("RuleMatch.paths", TOKEN_BUCKET, "match: {path: /v2/**}"),
          // compiled from the paths as they are read: a change of path changes both
          row("RuleMatch.pathGlobs", TOKEN_BUCKET, "match: {path: /v2/**}"),
          row("RuleMatch.methods", TOKEN_BUCKET, "match: {path: /api/**, methods: [POST]}"),
          row("RuleMatch.route", TOKEN_BUCKET, "match: {route: '/api/{id}'}"),
          row("RuleMatch.hosts", TOKEN_BUCKET, "match: {path: /api/**, hosts: [a.example]}"),
          row("RuleMatch.headers", TOKEN_BUCKET, "match: {path: /api/**, headers: {x-a: present}}"),
          row("RuleMatch.skip", TOKEN_BUCKET, "skip: {path: /api/health}"),
          row("Keying.key", TOKEN_BUCKET, "key: header:X-Api-Key"),
          row("Keying.normalize", TEXT_KEY, "key-normalize: true"),
          row("Keying.fallback", API_KEY, "key-fallback: ip"),
          row("Keying.maxKeys", TOKEN_BUCKET, "max-keys: 500"),
          row("Counting.algorithm", TOKEN_BUCKET, "algorithm: fixed-window"),
          row("Counting.limits", TOKEN_BUCKET, "limit: 20"),
          row("Counting.limits", TOKEN_BUCKET, "period: 1h"),
          row("Counting.limits", TOKEN_BUCKET, "burst: 30"),
          row("Counting.plans", PLANS, "plans: {header: X-Plan, default: free, limits:"
              + " {free: {limit: 60, period: 1h},"
              + " pro: [{limit: 20, period: 1s}, {limit: 20000, period: 1h}]}}"),
          row("Counting.maxDelayNanos", GCRA, "max-delay: 2s"),
          row("Counting.calendar", TOKEN_BUCKET, "period: -; limit: 1000; calendar: day")
              .shows(OnChange.STARTS_AFRESH),
          row("Counting.calendar", CALENDAR, "calendar: week").shows(OnChange.CARRIES_COUNTS_OVER),
          row("Counting.timeZone", CALENDAR, "time-zone: Europe/Paris"),
          row("AdaptiveSettings.min", ADAPTIVE, "min: 5"),
          row("AdaptiveSettings.initial", ADAPTIVE, "initial: 30"),
          row("AdaptiveSettings.max", ADAPTIVE, "max: 100"),
          row("AdaptiveSettings.maxWaitNanos", ADAPTIVE, "max-wait: 200ms"),
          row("PerClientSettings.percent", CONCURRENCY, "per-client: 25%"),
          row("PerClientSettings.key", CONCURRENCY, "per-client-key: header:X-Client"),
          row("Charging.cost", TOKEN_BUCKET, "cost: 2"),
          row("Charging.costHeader", TOKEN_BUCKET, "cost-header: X-Cost"),
          row("Charging.countWhen", TOKEN_BUCKET, "count-when: [401]"),
          // a change of count-when that turns key-normalize's default on changes the key
          row("Charging.countWhen", TEXT_KEY, "count-when: [401]")
              .shows(OnChange.STARTS_AFRESH).emptiesPenaltyBoxes(true),
          row("Enforcement.mode", ADAPTIVE, "mode: shadow"),
          row("Enforcement.mode", TOKEN_BUCKET, "mode: shadow").shows(OnChange.KEEPS_COUNTS),
          row("Enforcement.onFailure", REDIS, "on-failure: deny"),
          row("Enforcement.onFailure", TOKEN_BUCKET, "on-failure: deny")
              .shows(OnChange.KEEPS_COUNTS).emptiesPenaltyBoxes(false),
          row("Responding.quotaHeaders", TOKEN_BUCKET, "quota-headers: false"),
          row("Responding.partitionKey", TOKEN_BUCKET, "partition-key: true"),
          row("Responding.refusal", TOKEN_BUCKET, "response: {status: 503}"),
          row("AllowConfig.cidrs", TOKEN_BUCKET, "allow: {cidrs: [10.0.0.0/8]}"),
          row("AllowConfig.keys", API_KEY, "allow: {keys: [k1]}"),
          row("PenaltyConfig.after", TOKEN_BUCKET, "penalty: {after: 4, within: 1m, box-for: 15m}"),
          row("PenaltyConfig.withinNanos", TOKEN_BUCKET,
              "penalty: {after: 3, within: 2m, box-for: 15m}"),
          row("PenaltyConfig.boxForNanos", TOKEN_BUCKET,
              "penalty: {after: 3, within: 1m, box-for: 16m}"),
          row("ClientIpSettings.trustedProxyHops", TOKEN_BUCKET, "^client-ip: {trusted-proxies: 1}"),
          row("ClientIpSettings.trustedProxyCidrs", TOKEN_BUCKET,
              "^client-ip: {trusted-proxies: [10.0.0.0/8]}"),
          row("ClientIpSettings.ipv6Prefix", TOKEN_BUCKET, "^client-ip: {ipv6-prefix: 48}"),
          row("RulesConfig.backend", TOKEN_BUCKET, "^backend: redis; ^redis: {uri: REDIS_URI}"),
          row("RulesConfig.mode", ADAPTIVE, "^mode: shadow"),
          row("RulesConfig.mode", TOKEN_BUCKET, "^mode: shadow").shows(OnChange.KEEPS_COUNTS),
          row("RulesConfig.headers", TOKEN_BUCKET, "^headers: none"),
          row("RulesConfig.response", TOKEN_BUCKET, "^response: {status: 503}"),
          row("RulesConfig.source", TOKEN_BUCKET, "^# the same rules, read from after.yaml"),
          row("RulesConfig.keyLines", TOKEN_BUCKET, "^# a line above the rules"),
          row("RulesConfig.rules", TOKEN_BUCKET, "+  - {name: other, limit: 1, period: 1s}"),
          row("RulesConfig.outbound", TOKEN_BUCKET,
              "^outbound: [{name: partner, match: {hosts: api.partner.example},"
                  + " limit: 5, period: 1s}]"),
          row("RedisSettings.uri", REDIS, "^redis: {uri: REDIS_URI/1}"),
          row("RedisSettings.refusalCache", REDIS, "^redis: {uri: REDIS_URI, refusal-cache: true}"),
          row("RedisSettings.leaseTokens", REDIS, "^redis: {uri: REDIS_URI, lease-tokens: 5}"),
          row("RedisSettings.timeoutNanos", REDIS, "^redis: {uri: REDIS_URI, timeout: 3s}"),
          row("RedisSettings.maxWaitNanos", REDIS, "^redis: {uri: REDIS_URI, max-wait: 2s}"),
          row("RedisSettings.maxWaitingThreads", REDIS,
              "^redis: {uri: REDIS_URI, max-waiting-threads: 3}"),
          // A cluster and TLS need servers of their own: these rows are built as validate builds
          // them, every store made as the agent makes it, none connected.
          row("RedisSettings.cluster", REDIS,
              "^redis: {cluster: ['redis://127.0.0.1:1', 'redis://127.0.0.1:2']}").notConnecting(),
          row("RedisSettings.tlsCaFile", REDIS.replace("redis: {uri: REDIS_URI}",
                  "redis: {uri: 'rediss://127.0.0.1:1'}"),
              "^redis: {uri: 'rediss://127.0.0.1:1', tls: {ca-file: /tmp/ca.pem}}").notConnecting(),
          row("RedisSettings.verifyPeer", REDIS.replace("redis: {uri: REDIS_URI}",
                  "redis: {uri: 'rediss://127.0.0.1:1'}"),
              "^redis: {uri: 'rediss://127.0.0.1:1', tls: {verify-peer: none}}").notConnecting());

  private static String redisUri;

  @BeforeAll
  static void redis(RedisServer server) {
    redisUri = server.uri();
  }

  /** A field added to a part fails here, named, until CountedState says what changing it does. */
  @TestFactory
  Stream<DynamicTest> everyFieldOfEveryPartIsClassified() {
    Set<String> classified = new LinkedHashSet<>();
    for (Setting s : CountedState.settings()) {
      classified.add(s.name());
    }
    List<DynamicTest> tests = new ArrayList<>();
    for (Class<?> part : PARTS) {
      for (Field field : part.getDeclaredFields()) {
        if (Modifier.isStatic(field.getModifiers()) || PARTS.contains(field.getType())) {
          continue; // a part's fields are classified one by one
        }
        String name = part.getSimpleName() + "." + field.getName();
        tests.add(dynamicTest(name, () -> assertTrue(classified.contains(name),
            name + " is not classified in CountedState: say whether changing it keeps a rule's"
                + " counts, carries them over or starts them afresh")));
      }
    }
    return tests.stream();
  }

  /** A row of CountedState names a field that exists, so that a renamed field is renamed there. */
  @Test
  void everyRowNamesAFieldOfAPart() throws Exception {
    for (Setting s : CountedState.settings()) {
      assertTrue(PARTS.contains(s.part()), s + ": not one of the parts");
      Field field = s.part().getDeclaredField(s.field());
      assertFalse(Modifier.isStatic(field.getModifiers()), s.name());
    }
  }

  /**
   * Each row of CountedState is proven below: by a reload that changes its setting alone and shows
   * what the row says of the budgets, on a rule with a penalty when the row says the boxes are
   * emptied, and on one with per-client shares when it says those start afresh.
   */
  @Test
  void everyRowIsProvenByAReload() {
    for (Setting s : CountedState.settings()) {
      List<Row> rows = new ArrayList<>();
      for (Row r : TABLE) {
        if (r.setting.equals(s.name()) && r.expectedBudgets() == s.budgets()) {
          rows.add(r);
        }
      }
      assertFalse(rows.isEmpty(), "no reload in the table shows " + s);
      if (s.penaltyBoxes()) {
        assertTrue(rows.stream().anyMatch(r -> r.base.contains("penalty:")),
            "no reload of a rule with a penalty shows " + s);
      }
      if (s.clientShares()) {
        assertTrue(rows.stream().anyMatch(r -> r.base.contains("per-client:")),
            "no reload of a rule with per-client shares shows " + s);
      }
    }
  }

  @TestFactory
  Stream<DynamicTest> aReloadDoesWhatTheRowSays() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Row row : TABLE) {
      tests.add(dynamicTest(row.toString(), () -> row.check()));
    }
    return tests.stream();
  }

  /** One reload: a file, the same file with one change, and what it shows. */
  /**
   * What a reload did to a rule's counts, read from the rule sets themselves: the same stores
   * (kept), new stores carrying the old counts, or new stores from zero. Also used by {@code
   * FingerprintsWhenComparedTest}.
   */
  static OnChange whatHappenedToTheBudgets(Rule was, Rule now) {
    List<Rule> a = was.allBudgets();
    List<Rule> b = now.allBudgets();
    boolean same = a.size() == b.size();
    for (int i = 0; same && i < a.size(); i++) {
      same = a.get(i).store() == b.get(i).store();
    }
    return same
        ? OnChange.KEEPS_COUNTS
        : now.carriesCountsOf(was) ? OnChange.CARRIES_COUNTS_OVER : OnChange.STARTS_AFRESH;
  }

  static final class Row {
    final String setting;
    final String base;
    final String change;
    OnChange budgets;
    Boolean penaltyBoxes;
    boolean connecting = true;

    Row(String setting, String base, String change) {
      this.setting = setting;
      this.base = base;
      this.change = change;
    }

    Setting classified() {
      return CountedState.settings().stream()
          .filter(s -> s.name().equals(setting))
          .findFirst()
          .orElseThrow(() -> new AssertionError(setting + " has no row in CountedState"));
    }

    Row shows(OnChange budgets) {
      this.budgets = budgets;
      return this;
    }

    Row emptiesPenaltyBoxes(boolean emptied) {
      this.penaltyBoxes = emptied;
      return this;
    }

    Row notConnecting() {
      this.connecting = false;
      return this;
    }

    OnChange expectedBudgets() {
      return budgets != null ? budgets : classified().budgets();
    }

    boolean expectedPenaltyBoxes() {
      return penaltyBoxes != null ? penaltyBoxes : classified().penaltyBoxes();
    }

    boolean expectedClientShares() {
      return classified().clientShares();
    }

    void check() throws Exception {
      RuleSetFactory factory =
          connecting
              ? new RuleSetFactory(Clock.system())
              : RuleSetFactory.withoutConnecting(Clock.system());
      try {
        RulesConfig first = RulesFileParser.parse(yaml(items(base)), "before.yaml");
        RulesConfig second = RulesFileParser.parse(yaml(changed()), "after.yaml");
        RuleSet before = factory.build(first, null);
        factory.applied();
        RuleSet after = factory.build(second, before);
        factory.applied();
        Rule was = before.find(first.rules().get(0).name());
        Rule now = after.find(second.rules().get(0).name());
        assertEquals(expectedBudgets(), whatHappenedToTheBudgets(was, now), "the budgets' counts");
        if (was.penalty() != null) {
          assertEquals(expectedPenaltyBoxes(), was.penalty() != now.penalty(),
              "whether the penalty boxes are emptied");
        }
        if (was.clientShare() != null) {
          assertEquals(expectedClientShares(), was.clientShare() != now.clientShare(),
              "whether the per-client shares start afresh");
        }
      } finally {
        RedisBackend backend = factory.redisBackend();
        if (backend != null) {
          backend.close();
        }
      }
    }

    /** The base's items with the change's laid over them, by their key. */
    private Map<String, String> changed() {
      Map<String, String> items = items(base);
      for (Map.Entry<String, String> e : items(change).entrySet()) {
        if (e.getValue().endsWith(": -")) {
          items.remove(e.getKey());
        } else {
          items.put(e.getKey(), e.getValue());
        }
      }
      return items;
    }

    private static Map<String, String> items(String text) {
      Map<String, String> items = new LinkedHashMap<>();
      for (String item : text.split("; ")) {
        String key = item.startsWith("#") || item.startsWith("^#") || item.startsWith("+")
            ? item
            : item.substring(0, item.indexOf(':'));
        items.put(key, item);
      }
      return items;
    }

    private static String yaml(Map<String, String> items) {
      StringBuilder top = new StringBuilder();
      StringBuilder rule = new StringBuilder();
      StringBuilder after = new StringBuilder();
      for (String item : items.values()) {
        if (item.startsWith("^")) {
          top.append(item.substring(1)).append('\n');
        } else if (item.startsWith("+")) {
          after.append(item.substring(1)).append('\n');
        } else if (item.startsWith("name:")) {
          rule.insert(0, "  - " + item + "\n");
        } else {
          rule.append("    ").append(item).append('\n');
        }
      }
      return (top + "rules:\n" + rule + after).replace("REDIS_URI", redisUri);
    }

    @Override
    public String toString() {
      return setting + ": " + change + (budgets == null ? "" : " -> " + budgets);
    }
  }

  static Row row(String setting, String base, String change) {
    return new Row(setting, base, change);
  }

  private static List<Class<?>> partsOfARuleAndTheFile() {
    List<Class<?>> parts = new ArrayList<>();
    parts.add(RuleConfig.class);
    for (Field f : RuleConfig.class.getDeclaredFields()) {
      if (!Modifier.isStatic(f.getModifiers())
          && f.getType().getPackage() == RuleConfig.class.getPackage()) {
        parts.add(f.getType());
      }
    }
    parts.add(RulesConfig.class);
    parts.add(ClientIpSettings.class);
    parts.add(RedisSettings.class);
    return parts;
  }
}
