package io.tollgate.config;

import io.tollgate.limiters.LimitSpec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tollgate.limiters.AlgorithmKind;
import io.tollgate.limiters.CalendarQuota;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The rule model's keys: limits, plans, allow, penalty, calendar quotas, max-delay and
 * cost-header. What valid files turn into, then a corpus of broken ones, each refused with exactly
 * one problem on the line given, whose message contains every word given.
 */
class RuleModelParserTest {

  static final long S = 1_000_000_000L;

  static String yaml(String... lines) {
    return String.join("\n", lines) + "\n";
  }

  /** One rule named r1 with these lines (no limit of its own unless given). */
  static String rule(String... lines) {
    List<String> all = new ArrayList<>(Arrays.asList("rules:", "  - name: r1"));
    for (String l : lines) {
      all.add("    " + l);
    }
    return yaml(all.toArray(new String[0]));
  }

  static RuleConfig parseOne(String yaml) throws ConfigException {
    return RulesFileParser.parse(yaml, "rules.yaml").rules().get(0);
  }

  @Test
  void severalLimitsAreKeptInOrderAndTheFirstStandsAsLimitAndPeriod() throws Exception {
    RuleConfig r = parseOne(rule("limits: [{limit: 10, period: 1s}, {limit: 1000, period: 1h, burst: 50}]"));
    assertEquals(
        Arrays.asList(LimitSpec.of(10, S), new LimitSpec(1000, 3600 * S, 50)), r.limits());
    assertEquals(10, r.limit());
    assertEquals(S, r.periodNanos());
  }

  @Test
  void aSingleLimitIsOneEntryOfLimits() throws Exception {
    RuleConfig r = parseOne(rule("limit: 5", "period: 1m", "burst: 7"));
    assertEquals(Arrays.asList(new LimitSpec(5, 60 * S, 7)), r.limits());
  }

  @Test
  void plansMapEachPlanToItsLimits() throws Exception {
    RuleConfig r =
        parseOne(
            rule(
                "plans:",
                "  header: X-Plan",
                "  default: free",
                "  limits:",
                "    free: {limit: 10, period: 1m}",
                "    pro: [{limit: 1000, period: 1m}, {limit: 50000, period: 1d}]"));
    PlansConfig p = r.plans();
    assertEquals("X-Plan", p.header());
    assertEquals("free", p.defaultPlan());
    assertEquals(Arrays.asList("free", "pro"), new ArrayList<>(p.limits().keySet()));
    assertEquals(2, p.limits().get("pro").size());
    assertEquals("pro", p.planFor(" PRO "));
    assertEquals("free", p.planFor("gold"));
    assertEquals("free", p.planFor(null));
    assertEquals(10, r.limit(), "the default plan's first limit stands as the rule's limit");
  }

  @Test
  void aCalendarQuotaIsAFixedWindowInATimeZone() throws Exception {
    RuleConfig r = parseOne(rule("limit: 1000", "calendar: month", "time-zone: Europe/Paris"));
    assertEquals(AlgorithmKind.FIXED_WINDOW, r.algorithm());
    assertEquals(CalendarQuota.Unit.MONTH, r.calendar());
    assertEquals(ZoneId.of("Europe/Paris"), r.timeZone());
    assertEquals(30 * 86_400 * S, r.periodNanos(), "nominal length, for display");
    assertEquals(ZoneOffset.UTC, parseOne(rule("limit: 5", "calendar: day")).timeZone());
  }

  @Test
  void allowPenaltyMaxDelayAndCostHeaderAreKept() throws Exception {
    RuleConfig r =
        parseOne(
            yaml(
                "allow: { cidrs: [192.0.2.0/24] }",
                "rules:",
                "  - name: r1",
                "    key: header:X-Api-Key",
                "    algorithm: gcra",
                "    limit: 5",
                "    period: 1s",
                "    max-delay: 500ms",
                "    cost-header: X-Tollgate-Cost",
                "    allow: { cidrs: [10.0.0.0/8], keys: [partner-1] }",
                "    penalty: { after: 5, within: 1m, box-for: 15m }"));
    assertEquals(Arrays.asList("10.0.0.0/8", "192.0.2.0/24"), r.allow().cidrs());
    assertEquals(Arrays.asList("partner-1"), r.allow().keys());
    assertEquals(new PenaltyConfig(5, 60 * S, 900 * S), r.penalty());
    assertEquals(S / 2, r.maxDelayNanos());
    assertEquals("X-Tollgate-Cost", r.costHeader());
    RuleConfig plain = parseOne(rule("limit: 5", "period: 1m"));
    assertTrue(plain.allow().isEmpty());
    assertNull(plain.penalty());
    assertNull(plain.costHeader());
    assertNull(plain.calendar());
  }

  static Arguments broken(String what, String yaml, int line, String... words) {
    return Arguments.of(what, yaml, line, words);
  }

  static Stream<Arguments> corpus() {
    return Stream.of(
        broken("a misspelt limits key",
            rule("limts: [{limit: 1, period: 1s}]"), 3, "unknown key 'limts'", "did you mean 'limits'?"),
        broken("a misspelt key inside an entry of limits",
            rule("limits:", "  - {limit: 1, perod: 1s}"), 4, "unknown key 'perod'", "did you mean 'period'?"),
        broken("limits with limit beside it",
            rule("limit: 5", "limits: [{limit: 1, period: 1s}]"), 3, "either 'limits' or limit/period"),
        broken("an entry of limits without a period",
            rule("limits:", "  - {limit: 1, period: 1s}", "  - {limit: 9}"), 5, "no period"),
        broken("two limits with the same period",
            rule("limits:", "  - {limit: 1, period: 60s}", "  - {limit: 9, period: 1m}"), 5, "period 1m", "line 4"),
        broken("limits that is not a list",
            rule("limits: 5"), 3, "must be a list of limits"),
        broken("several limits on a concurrency rule",
            rule("algorithm: concurrency", "limits: [{limit: 1, period: 1s}, {limit: 2, period: 1m}]"), 4, "concurrency", "one limit"),
        broken("max-delay on a token bucket",
            rule("limit: 5", "period: 1s", "max-delay: 1s"), 5, "max-delay", "gcra algorithm only"),
        broken("max-delay too long",
            rule("algorithm: gcra", "limit: 5", "period: 1s", "max-delay: 1m"), 6, "at most 10s", "Retry-After"),
        broken("a misspelt max-delay",
            rule("algorithm: gcra", "limit: 5", "period: 1s", "max-dely: 1s"), 6, "did you mean 'max-delay'?"),
        broken("an unknown calendar unit",
            rule("limit: 5", "calendar: weak"), 4, "calendar must be one of day, week, month, year", "did you mean 'week'?"),
        broken("a calendar with a period",
            rule("limit: 5", "calendar: day", "period: 1d"), 5, "leave 'period' out"),
        broken("a calendar on a token bucket",
            rule("algorithm: token-bucket", "limit: 5", "calendar: week"), 3, "fixed window", "fixed-window"),
        broken("a time zone that does not exist",
            rule("limit: 5", "calendar: day", "time-zone: Europe/Pariss"), 5, "not a time zone", "Europe/Paris"),
        broken("a time zone without a calendar",
            rule("limit: 5", "period: 1d", "time-zone: UTC"), 5, "calendar quotas only"),
        broken("a misspelt time-zone key",
            rule("limit: 5", "calendar: day", "timezone: UTC"), 5, "did you mean 'time-zone'?"),
        broken("a key-fallback without a key to fall back from",
            rule("limit: 5", "period: 1s", "key-fallback: ip"), 5, "key-fallback needs a key"),
        broken("a key-fallback that is not a key",
            rule("key: header:X-Api-Key", "key-fallback: address", "limit: 5", "period: 1s"), 4,
            "key"),
        broken("a cost-header that is not a header name",
            rule("limit: 5", "period: 1s", "cost-header: X Cost"), 5, "not a valid header name"),
        broken("a cost-header on a concurrency rule",
            rule("algorithm: concurrency", "limit: 5", "period: 1s", "cost-header: X-Cost"), 6, "concurrency"),
        broken("plans without a default",
            rule("plans:", "  header: X-Plan", "  limits: { free: {limit: 1, period: 1m} }"), 4, "plans needs 'default:'"),
        broken("plans whose default names no plan",
            rule("plans:", "  header: X-Plan", "  default: fre", "  limits: { free: {limit: 1, period: 1m} }"), 5,
            "'fre' is not one of the plans", "did you mean 'free'?"),
        broken("plans without a header",
            rule("plans:", "  default: free", "  limits: { free: {limit: 1, period: 1m} }"), 4, "plans needs 'header:'"),
        broken("a misspelt key in plans",
            rule("plans:", "  heder: X-Plan", "  header: X-Plan", "  default: free", "  limits: { free: {limit: 1, period: 1m} }"), 4,
            "unknown key 'heder'", "did you mean 'header'?"),
        broken("plans with limit beside them",
            rule("limit: 5", "plans:", "  header: X-Plan", "  default: free", "  limits: { free: {limit: 1, period: 1m} }"), 3,
            "either 'plans' or limit/period"),
        broken("a plan given twice in different case",
            rule("plans:", "  header: X-Plan", "  default: free", "  limits:", "    free: {limit: 1, period: 1m}", "    FREE: {limit: 2, period: 1m}"), 8,
            "plan 'FREE' is given twice"),
        broken("an allow CIDR that is not one",
            rule("limit: 5", "period: 1m", "allow: { cidrs: [10.0.0.0/33] }"), 5, "'10.0.0.0/33' is not an IP address or CIDR"),
        broken("a misspelt allow key",
            rule("limit: 5", "period: 1m", "allow: { cidr: [10.0.0.0/8] }"), 5, "unknown key 'cidr'", "did you mean 'cidrs'?"),
        broken("allow.keys on a rule keyed by ip",
            rule("limit: 5", "period: 1m", "allow: { keys: [abc] }"), 5, "allow.keys", "header:", "allow.cidrs"),
        broken("allow.keys at the top level",
            yaml("allow: { keys: [abc] }", "rules: []"), 1, "top level", "rule's 'allow:'"),
        broken("a penalty without box-for",
            rule("limit: 5", "period: 1m", "penalty: { after: 5, within: 1m }"), 5, "penalty needs 'box-for'"),
        broken("a misspelt penalty key",
            rule("limit: 5", "period: 1m", "penalty: { after: 5, within: 1m, box_for: 15m }"), 5,
            "unknown key 'box_for'", "did you mean 'box-for'?"),
        broken("a penalty after too many refusals",
            rule("limit: 5", "period: 1m", "penalty: { after: 5000, within: 1m, box-for: 15m }"), 5, "penalty.after", "1 to 1000"),
        broken("a cost larger than one of several limits",
            rule("cost: 20", "limits: [{limit: 100, period: 1h}, {limit: 10, period: 1s}]"), 3, "cost of 20", "limit of 10"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpus")
  void isRefusedWithOneClearProblem(String what, String yaml, int line, String[] words) {
    ConfigException e =
        assertThrows(ConfigException.class, () -> RulesFileParser.parse(yaml, "rules.yaml"), what);
    List<ConfigProblem> problems = e.problems();
    if (problems.size() != 1) {
      fail("expected exactly one problem, got:\n" + e.getMessage());
    }
    ConfigProblem p = problems.get(0);
    assertEquals(line, p.line(), () -> "line of: " + p);
    for (String word : words) {
      assertTrue(
          p.message().toLowerCase(Locale.ROOT).contains(word.toLowerCase(Locale.ROOT)),
          () -> "'" + word + "' missing from: " + p);
    }
  }
}
