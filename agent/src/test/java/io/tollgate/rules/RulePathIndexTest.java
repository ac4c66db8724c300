package io.tollgate.rules;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.config.ConfigException;
import io.tollgate.config.RulesFileParser;
import io.tollgate.limiters.ManualClock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * A long rules file is narrowed by path before its rules are matched: the index may keep a rule
 * that then does not match, never leave out one that does, and keeps file order.
 */
class RulePathIndexTest {

  /** Rule i's path globs; "-" for a rule on every path. Padded past the scan threshold. */
  private static final String[] GLOBS = {
    "/hello",                 // 0
    "/api/**",                // 1
    "/api/orders/*",          // 2
    "/v*/items",              // 3
    "-",                      // 4
    "/tenants/t1/**",         // 5
    "/tenants/t2/**",         // 6
    "/login|/api/login",      // 7
    "/",                      // 8
    "/api/orders/{id}/x",     // 9: '{' is literal in a glob
    "/**",                    // 10
    "/tenants/t1",            // 11
  };

  @ParameterizedTest(name = "{0} -> rules {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        // path              | candidates (3, 4 and 10 start with no literal segment: always)
        "/hello              | 0 3 4 10",
        "/hello/x            | 0 3 4 10",
        "/api                | 1 3 4 10",
        "/api/orders/7       | 1 2 3 4 10",
        "/api/orders/7/x     | 1 2 3 4 10",
        "/api/login          | 1 3 4 7 10",
        "/login              | 3 4 7 10",
        "/v1/items           | 3 4 10",
        "/tenants/t1/a/b     | 3 4 5 10 11",
        "/tenants/t1         | 3 4 5 10 11",
        "/tenants/t2/a       | 3 4 6 10",
        "/tenants/t3/a       | 3 4 10",
        "/                   | 3 4 8 10",
        "/nothing/here       | 3 4 10",
      })
  void aPathCollectsTheRulesAlongItsLiteralSegments(String path, String expected) {
    RuleSet rules = ruleSet(GLOBS);
    int[] want = Arrays.stream(expected.trim().split(" ")).mapToInt(Integer::parseInt).toArray();
    assertArrayEquals(want, rules.candidatesFor(path));
  }

  @Test
  void aShortFileIsScannedInFull() {
    assertNull(ruleSet(new String[] {"/hello", "/api/**"}, 2).candidatesFor("/hello"));
  }

  /** Over random globs and paths: every rule that matches a path is among its candidates. */
  @Test
  void neverLeavesOutARuleThatMatches() {
    long seed = Long.getLong("tollgate.seed", System.nanoTime());
    Random random = new Random(seed);
    for (int round = 0; round < 20; round++) {
      String[] globs = RandomPaths.globs(random, 40, 10);
      RuleSet rules = ruleSet(globs);
      for (int p = 0; p < 200; p++) {
        String path = RandomPaths.path(random, RandomPaths.PATH_SEGMENTS);
        List<Integer> candidates = new ArrayList<>();
        for (int c : rules.candidatesFor(path)) {
          candidates.add(c);
        }
        for (int i = 0; i < rules.size(); i++) {
          if (rules.get(i).matches("GET", path)) {
            assertTrue(candidates.contains(i), "seed " + seed + ": rule " + i + " ("
                + globs[i] + ") matches " + path + " but is not a candidate: " + candidates);
          }
        }
        for (int k = 1; k < candidates.size(); k++) {
          assertTrue(candidates.get(k - 1) < candidates.get(k), "file order, seed " + seed);
        }
      }
    }
  }

  private static RuleSet ruleSet(String[] globs) {
    return ruleSet(globs, Math.max(globs.length, RuleSet.SCANNED_UP_TO + 1));
  }

  private static RuleSet ruleSet(String[] globs, int count) {
    StringBuilder yaml = new StringBuilder("rules:\n");
    for (int i = 0; i < count; i++) {
      String glob = i < globs.length ? globs[i] : "/padding/" + i;
      yaml.append("  - name: r").append(i).append('\n');
      if (!glob.equals("-")) {
        yaml.append("    match:\n      path: [");
        String[] each = glob.split("\\|");
        for (int g = 0; g < each.length; g++) {
          yaml.append(g == 0 ? "" : ", ").append('"').append(each[g]).append('"');
        }
        yaml.append("]\n");
      }
      yaml.append("    key: ip\n    limit: 5\n    period: 1m\n");
    }
    try {
      return new RuleSetFactory(ManualClock.atEpochMillis(0))
          .build(RulesFileParser.parse(yaml.toString(), "rules.yaml"), null);
    } catch (ConfigException e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }
}
