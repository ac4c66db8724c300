package io.tollgate.config;

import io.tollgate.limiters.LimitSpec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.tollgate.limiters.AlgorithmKind;
import io.tollgate.limiters.CalendarQuota;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * A rule is the same after a reload when its parts are, compared one by one, and each part is
 * compared by every field it holds. A field added to a part but left out of its equality would let
 * a changed rule pass for unchanged: the specifications below fail then, naming the field.
 *
 * <p>The table holds, for each part, two values that differ in every field. For each field, a copy
 * of the first with only that field taken from the second must not equal the first. A new field
 * fails here until the table's two values differ in it, and then until equality compares it.
 */
class RuleConfigEqualityTest {

  static final long S = 1_000_000_000L;

  /** Where a rule is written: the only fields of a rule that are not part of its value. */
  static final Set<String> WHERE_WRITTEN = new TreeSet<>(Arrays.asList("line", "keyLines"));

  /**
   * A match's path globs compiled once, when the rule is read: made from its {@code paths}, which
   * its equality compares, so not compared again.
   */
  static final Set<String> DERIVED_IN_MATCH = new TreeSet<>(Arrays.asList("pathGlobs"));

  /** One row: a part, and two values of it that differ in every field. */
  static final class Row {
    final Class<?> part;
    final Supplier<Object> one;
    final Supplier<Object> other;

    Row(Class<?> part, Supplier<Object> one, Supplier<Object> other) {
      this.part = part;
      this.one = one;
      this.other = other;
    }
  }

  static final List<Row> TABLE =
      Arrays.asList(
          new Row(
              RuleMatch.class,
              () -> new RuleMatch(list("/a/*"), set("GET"), "/a/{id}", list("a.example"),
                  map("x-a", RequestConditions.PRESENT),
                  new RequestConditions(list("/a/health"), set(), list(), map())),
              () -> new RuleMatch(list("/b/**"), set("POST"), "/b/{id}", list("b.example"),
                  map("x-b", RequestConditions.ABSENT), null)),
          new Row(
              Keying.class,
              () -> new Keying(list("ip"), true, list("ip"), 10),
              () -> new Keying(list("header:X-Api-Key"), null, null, 0)),
          new Row(
              Counting.class,
              () -> new Counting(null, list(LimitSpec.of(5, S)), null, 0, null, null),
              () -> new Counting(AlgorithmKind.GCRA, list(LimitSpec.of(6, S)),
                  new PlansConfig("x-plan", "free", Collections.singletonMap(
                      "free", list(LimitSpec.of(6, S)))),
                  S / 10, CalendarQuota.Unit.DAY, ZoneId.of("Europe/Paris"))),
          new Row(
              AdaptiveSettings.class,
              () -> new AdaptiveSettings(1, 2, 3, 4),
              () -> new AdaptiveSettings(5, 6, 7, 8)),
          new Row(
              PerClientSettings.class,
              () -> new PerClientSettings(50, null),
              () -> new PerClientSettings(25, list("header:X-Client"))),
          new Row(
              Charging.class,
              () -> new Charging(null, null, null),
              () -> new Charging(new CostConfig(2, Collections.emptyMap()), "x-cost", CountWhen.of("401"))),
          new Row(
              Enforcement.class,
              () -> new Enforcement(null, null),
              () -> new Enforcement(Mode.SHADOW, OnFailure.DENY)),
          new Row(
              Responding.class,
              () -> new Responding(null, false, null),
              () -> new Responding(true, true, new ResponseConfig(503, null, null, null))),
          new Row(
              AllowConfig.class,
              () -> new AllowConfig(list("10.0.0.0/8"), list()),
              () -> new AllowConfig(list(), list("k1"))),
          new Row(
              PenaltyConfig.class,
              () -> new PenaltyConfig(3, 60 * S, 600 * S),
              () -> new PenaltyConfig(4, 61 * S, 601 * S)),
          new Row(
              LimitSpec.class,
              () -> LimitSpec.of(5, S),
              () -> new LimitSpec(6, 2 * S, 9)),
          new Row(
              OutboundRuleConfig.class,
              () -> new OutboundRuleConfig("a", 3, Collections.emptyMap(), list("a.example"), 0, list(), set(),
                  OutboundRuleConfig.KEY_GLOBAL, AlgorithmKind.TOKEN_BUCKET,
                  list(LimitSpec.of(5, S)), 0, 0, OnLimit.WAIT, true, 10 * S, null, null, null,
                  100),
              () -> new OutboundRuleConfig("b", 7, Collections.singletonMap("limit", 9), list("b.example"), 443,
                  list("/b/**"), set("POST"), OutboundRuleConfig.KEY_HOST, AlgorithmKind.GCRA,
                  list(LimitSpec.of(6, S)), S, 2 * S, OnLimit.FAIL, false, 0, Backend.LOCAL,
                  Mode.SHADOW, OnFailure.DENY, 200)),
          new Row(
              RuleConfig.class,
              () -> RuleConfig.builder("a").limit(5).periodNanos(S).build(),
              () -> RuleConfig.builder("b")
                  .line(7)
                  .keyLine("limit", 9)
                  .paths(list("/b/**"))
                  .key(list("header:X-Api-Key"))
                  .algorithm(AlgorithmKind.CONCURRENCY)
                  .limit(6)
                  .periodNanos(S)
                  .adaptive(1, 2, 3, 4)
                  .perClient(25, null)
                  .cost(new CostConfig(2, Collections.emptyMap()))
                  .mode(Mode.SHADOW)
                  .quotaHeaders(true)
                  .allow(new AllowConfig(list("10.0.0.0/8"), list()))
                  .penalty(new PenaltyConfig(3, 60 * S, 600 * S))
                  .build()));

  @TestFactory
  Stream<DynamicTest> everyFieldOfEveryPartIsPartOfItsEquality() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Row row : TABLE) {
      for (Field field : valueFields(row.part)) {
        tests.add(dynamicTest(row.part.getSimpleName() + "." + field.getName(), () -> {
          Object one = row.one.get();
          Object copy = row.one.get();
          assertEquals(one, copy, "two values made alike are equal");
          assertEquals(one.hashCode(), copy.hashCode(), "and have the same hash");
          Object otherValue = field.get(row.other.get());
          assertNotEquals(field.get(one), otherValue,
              "the table's two values must differ in " + field.getName());
          field.set(copy, otherValue);
          assertNotEquals(one, copy,
              field.getName() + " is not part of " + row.part.getSimpleName() + "'s equality");
        }));
      }
    }
    return tests.stream();
  }

  /** A part added to a rule is compared by its own fields only once the table has its row. */
  @Test
  void everyPartOfARuleHasItsRowInTheTable() {
    Set<Class<?>> inTable = new java.util.HashSet<>();
    for (Row row : TABLE) {
      inTable.add(row.part);
    }
    for (Field field : valueFields(RuleConfig.class)) {
      Class<?> type = field.getType();
      if (type.getPackage() == RuleConfig.class.getPackage()) {
        assertTrue(inTable.contains(type), "no row for " + type.getSimpleName());
      }
    }
  }

  @Test
  void theDerivedPathGlobsAreThePathsCompiled() {
    RuleConfig rule =
        RuleConfig.builder("a").paths(list("/a/**", "/b/*", "/c")).limit(5).periodNanos(S).build();
    assertEquals(rule.paths().size(), rule.pathGlobs().size());
    for (int i = 0; i < rule.paths().size(); i++) {
      assertEquals(PathGlob.compile(rule.paths().get(i)), rule.pathGlobs().get(i));
    }
  }

  @Test
  void whereARuleIsWrittenIsNotPartOfIt() {
    RuleConfig a = RuleConfig.builder("a").limit(5).periodNanos(S).line(3).keyLine("limit", 4).build();
    RuleConfig b = RuleConfig.builder("a").limit(5).periodNanos(S).line(30).build();
    assertEquals(a, b);
    assertEquals(a.hashCode(), b.hashCode());
    for (String name : WHERE_WRITTEN) {
      assertTrue(
          Arrays.stream(RuleConfig.class.getDeclaredFields()).anyMatch(f -> f.getName().equals(name)),
          name + " is still a field of RuleConfig");
    }
  }

  /** Two parts of different kinds that hold the same values are not equal. */
  @Test
  void partsOfDifferentKindsAreNeverEqual() {
    assertNotEquals(new Enforcement(null, null), new Charging(null, null, null));
  }

  /** The instance fields of a part, made writable; for a rule, those of its value only. */
  static List<Field> valueFields(Class<?> part) {
    List<Field> fields = new ArrayList<>();
    for (Field f : part.getDeclaredFields()) {
      if (Modifier.isStatic(f.getModifiers())
          || ((part == RuleConfig.class || part == OutboundRuleConfig.class)
              && WHERE_WRITTEN.contains(f.getName()))
          || (part == RuleMatch.class && DERIVED_IN_MATCH.contains(f.getName()))) {
        continue;
      }
      f.setAccessible(true);
      fields.add(f);
    }
    return fields;
  }

  @SafeVarargs
  static <T> List<T> list(T... items) {
    return Arrays.asList(items);
  }

  static Set<String> set(String... items) {
    return new java.util.LinkedHashSet<>(Arrays.asList(items));
  }

  static Map<String, String> map(String... keyValues) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      m.put(keyValues[i], keyValues[i + 1]);
    }
    return m;
  }
}
