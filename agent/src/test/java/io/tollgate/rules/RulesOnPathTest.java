package io.tollgate.rules;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.config.ConfigException;
import io.tollgate.config.RulesFileParser;
import io.tollgate.limiters.ManualClock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The rules an outermost entry point finds on a request's path, once for both of its questions
 * (issue 29 item 2): none ({@link RuleSet#NO_RULE}) exactly when no rule's paths match and no rule
 * waits for a route template, and otherwise the rules its decision matches in full, in file order, leaving out none
 * that matches: a short file from its first rule on the path, a long one as its index found them.
 */
class RulesOnPathTest {

  @ParameterizedTest(name = "{0} rules, {1} on {2} -> {3}")
  @CsvSource(delimiter = '|', value = {
    // rules | globs (rule 0, 1, ...; '-' every path) | path    | rules on the path, or none
    "short   | /hello /api/**                         | /hello  | 0 1",
    "short   | /hello /api/**                         | /api/x  | 1",
    "short   | /hello /api/**                         | /other  | none",
    "short   | /hello - /api/**                       | /other  | 1 2",
    // a route rule in force: every request is looked at, from the first rule
    "short   | /hello /api/**@route                   | /other  | 0 1",
    "long    | /hello /api/**                         | /hello  | 0",
    "long    | /hello /api/**                         | /api/x  | 1",
    "long    | /hello /api/**                         | /other  | none",
    "long    | /hello /api/** /**                     | /other  | 2",
    "long    | /hello /api/**@route                   | /other  | ",
  })
  void theRulesOnAPath(String size, String globs, String path, String expected) {
    RuleSet rules = ruleSet(globs.trim().split(" "), size.trim().equals("long"));
    int[] found = rules.rulesOnPath(path.trim());
    String want = expected == null ? "" : expected.trim();
    if (want.equals("none")) {
      assertSame(RuleSet.NO_RULE, found);
    } else {
      int[] positions = want.isEmpty() ? new int[0]
          : Arrays.stream(want.split(" ")).mapToInt(Integer::parseInt).toArray();
      assertArrayEquals(positions, found);
      assertTrue(found != RuleSet.NO_RULE, "looked at");
    }
  }

  /** Over random globs and paths, short files and long. */
  @Test
  void leavesOutNoRuleThatMatchesAndSaysNoneOnlyWhenNoneMatches() {
    long seed = Long.getLong("tollgate.seed", System.nanoTime());
    Random random = new Random(seed);
    for (int round = 0; round < 20; round++) {
      String[] globs = RandomPaths.globs(random, round % 2 == 0 ? 5 : 40, 20);
      RuleSet rules = ruleSet(globs, false);
      for (int p = 0; p < 200; p++) {
        String path = RandomPaths.path(random, RandomPaths.PATH_SEGMENTS);
        int[] found = rules.rulesOnPath(path);
        List<Integer> on = new ArrayList<>();
        for (int c : found) {
          on.add(c);
        }
        boolean anyMatches = false;
        for (int i = 0; i < rules.size(); i++) {
          if (rules.get(i).matches("GET", path)) {
            anyMatches = true;
            assertTrue(on.contains(i), "seed " + seed + ": rule " + i + " (" + globs[i]
                + ") matches " + path + " but is not among " + on);
          }
        }
        assertEquals(!anyMatches, found == RuleSet.NO_RULE, "seed " + seed + ", " + path);
        for (int k = 1; k < on.size(); k++) {
          assertTrue(on.get(k - 1) < on.get(k), "file order, seed " + seed);
        }
      }
    }
  }

  /**
   * Rules on {@code globs} ({@code -}: every path; {@code @route}: keyed by the route template),
   * padded past the scanned few with rules on paths no case asks about when {@code long}.
   */
  private static RuleSet ruleSet(String[] globs, boolean padded) {
    int count = padded ? Math.max(globs.length, RuleSet.SCANNED_UP_TO + 1) : globs.length;
    StringBuilder yaml = new StringBuilder("rules:\n");
    for (int i = 0; i < count; i++) {
      String glob = i < globs.length ? globs[i] : "/padding/" + i;
      boolean route = glob.endsWith("@route");
      glob = glob.replace("@route", "");
      yaml.append("  - name: r").append(i).append('\n');
      if (!glob.equals("-")) {
        yaml.append("    match:\n      path: \"").append(glob).append("\"\n");
      }
      yaml.append("    key: ").append(route ? "route" : "ip")
          .append("\n    limit: 5\n    period: 1m\n");
    }
    try {
      return new RuleSetFactory(ManualClock.atEpochMillis(0))
          .build(RulesFileParser.parse(yaml.toString(), "rules.yaml"), null);
    } catch (ConfigException e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }
}
