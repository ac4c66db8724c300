package io.tollgate.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A rule and its budgets are values: the factory makes them once, handing each at construction
 * what it keeps from the rule it replaces, and nothing of them changes afterwards. Every field is
 * final; the one exception is a cache, listed here with why.
 */
class RuleIsAValueTest {

  /**
   * Not part of the rule: its counters, looked up in the registry on first use and kept, and its
   * quota headers' constant parts (the policy item, its bytes, the cache of recent RateLimit
   * values), made at its first response rather than when a long file's rules are built (each an
   * immutable value or a cache of them: a race makes it twice).
   */
  static final List<String> CACHES = Arrays.asList("Rule.metrics", "Rule.quotaPolicyHeader",
      "Rule.quotaPolicyItem", "Rule.rateLimitValues");

  @ParameterizedTest(name = "every field of {0} is final")
  @ValueSource(classes = {Rule.class, Rule.Budget.class, Rule.Shared.class})
  void everyFieldIsFinal(Class<?> type) {
    List<String> notFinal = new ArrayList<>();
    for (Field f : type.getDeclaredFields()) {
      String name = type.getSimpleName() + "." + f.getName();
      if (!Modifier.isFinal(f.getModifiers()) && !f.isSynthetic() && !CACHES.contains(name)) {
        notFinal.add(name);
      }
    }
    assertEquals(Collections.emptyList(), notFinal);
  }
}
