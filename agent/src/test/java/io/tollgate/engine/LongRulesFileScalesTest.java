package io.tollgate.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.config.ConfigProblem;
import io.tollgate.config.RulesConfig;
import io.tollgate.config.RulesFileParser;
import io.tollgate.config.RulesFileReader;
import io.tollgate.limiters.Clock;
import io.tollgate.rules.RuleSetFactory;
import io.tollgate.testing.StandardErrorCapture;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Loading, validating and reloading a rules file costs the same per rule for 1,000 rules as for
 * 4,000 (issue 29: 10,000 rules in under a second). Measured in bytes allocated by the thread that
 * does the work, not in time: the count does not depend on the machine's load, and a step that
 * grows with the square of the file (a list copied per rule, a message naming every rule, a
 * lookup that builds what it searches) allocates 4 times more per rule for 4 times the rules.
 */
class LongRulesFileScalesTest {

  @TempDir Path dir;

  @RegisterExtension final StandardErrorCapture stderr = new StandardErrorCapture();

  enum Step {
    /** What {@code tollgate-agent.jar validate} does: parse, then build without connecting. */
    VALIDATE,
    /** The agent's first load of the file. */
    LOAD,
    /** A reload that changes every other rule's limit: half the rules keep their counts. */
    RELOAD,
    /** Every rule with a misspelt key, every other one with its neighbour's name: all reported. */
    INVALID
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Step.class)
  void costsTheSamePerRuleForFourTimesTheRules(Step step) throws Exception {
    allocatedBy(step, 1_000); // classes loaded, caches filled: not the rules' cost
    long perRuleSmall = allocatedBy(step, 1_000) / 1_000;
    long perRuleLarge = allocatedBy(step, 4_000) / 4_000;
    assertTrue(perRuleLarge <= perRuleSmall * 3 / 2,
        step + ": " + perRuleSmall + " B per rule for 1,000 rules, " + perRuleLarge
            + " B for 4,000: a step grows faster than the file");
  }

  @Test
  void theLogNamesTheFirstRulesOnly() throws Exception {
    Path file = dir.resolve("rules.yaml");
    write(file, rulesFile(25, false, 100));
    String logged = RulesHolder.describe(holder(file).current());
    assertEquals("25 rules: tenant-1, tenant-2, tenant-3, tenant-4, tenant-5, tenant-6, tenant-7,"
        + " tenant-8, tenant-9, tenant-10, tenant-11, tenant-12, tenant-13, tenant-14, tenant-15,"
        + " tenant-16, tenant-17, tenant-18, tenant-19, tenant-20, and 5 more", logged);
  }

  /** Bytes the current thread allocated for {@code step} on a file of {@code rules} rules. */
  private long allocatedBy(Step step, int rules) throws Exception {
    Path file = dir.resolve("rules-" + rules + ".yaml");
    write(file, rulesFile(rules, step == Step.INVALID, 100));
    switch (step) {
      case VALIDATE: {
        long before = allocatedBytes();
        RulesConfig config = RulesFileParser.parse(file);
        RuleSetFactory.withoutConnecting(Clock.system()).build(config, null);
        long used = allocatedBytes() - before;
        assertEquals(rules, config.rules().size());
        return used;
      }
      case LOAD: {
        long before = allocatedBytes();
        RulesHolder holder = holder(file);
        long used = allocatedBytes() - before;
        assertEquals(rules, holder.current().size());
        return used;
      }
      case RELOAD: {
        RulesHolder holder = holder(file);
        write(file, rulesFile(rules, false, 200));
        long before = allocatedBytes();
        // applied once two polls in a row read the same content
        boolean applied = holder.reloadIfChanged() | holder.reloadIfChanged();
        long used = allocatedBytes() - before;
        assertTrue(applied);
        assertEquals(rules, holder.current().size());
        return used;
      }
      case INVALID: {
        long before = allocatedBytes();
        List<ConfigProblem> problems = RulesFileParser.validate(file, RulesFileParser.SYSTEM_ENV);
        long used = allocatedBytes() - before;
        assertEquals(2 * rules + rules / 2, problems.size(),
            "per rule a misspelt key and the limit it leaves missing; a repeated name per two");
        assertTrue(problems.get(problems.size() - 1).toString().contains("did you mean 'limit'"),
            problems.get(problems.size() - 1).toString());
        return used;
      }
      default:
        throw new AssertionError(step);
    }
  }

  private static RulesHolder holder(Path file) {
    RulesHolder holder =
        new RulesHolder(new RuleSetFactory(Clock.system()), RulesFileReader::read, 0);
    holder.useFile(file.toString());
    return holder;
  }

  /**
   * {@code rules} per-tenant rules, as BENCHMARKS.md's long file has them; every other rule's limit
   * is {@code evenLimit}. Invalid: each rule misspells {@code limit}, and every other one repeats the
   * name of the one before.
   */
  static String rulesFile(int rules, boolean invalid, int evenLimit) {
    StringBuilder yaml = new StringBuilder("rules:\n");
    for (int i = 1; i <= rules; i++) {
      int name = invalid && i % 2 == 0 ? i - 1 : i;
      yaml.append("  - name: tenant-").append(name)
          .append("\n    match:\n      path: /tenants/t").append(i).append("/**\n    key: ip\n")
          .append(invalid ? "    limti: 100\n" : "    limit: " + (i % 2 == 0 ? evenLimit : 100) + "\n")
          .append("    period: 1m\n");
    }
    return yaml.toString();
  }

  private static void write(Path file, String text) throws Exception {
    Files.write(file, text.getBytes(StandardCharsets.UTF_8));
  }

  private static long allocatedBytes() {
    return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
        .getThreadAllocatedBytes(Thread.currentThread().getId());
  }
}
