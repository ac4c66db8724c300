package io.tollgate.cli;

import io.tollgate.config.RulesConfig;
import io.tollgate.config.RulesFileParser;
import io.tollgate.limiters.Clock;
import io.tollgate.outbound.OutboundRules;
import io.tollgate.rules.RuleSetFactory;

/**
 * Reads and builds a small rules text of its own on a second thread while {@code validate}'s main
 * thread reads a long file, so that the classes of every later step (the rules' parsers, the
 * build, the path index) are loaded, verified and initialised on the other core, not one after
 * the other on the main thread as it first reaches each step; their first runs are counted
 * towards the JIT's thresholds too.
 *
 * <p>The main thread finds each class already loaded, or waits for the load in progress (the
 * agent's class loader is parallel capable), so nothing it reads, builds or prints changes: the
 * warm-up's own rules are thrown away, it prints nothing and {@link RuleSetFactory#forOneBuild}
 * connects to nothing and logs nothing. Anything that goes wrong here only leaves the loading to
 * the main thread, as before. Only for long files ({@link QuickCompiles#LONG_FILE_BYTES}): for a
 * short one the main thread would do it as soon.
 */
final class ValidateWarmUp {

  /**
   * More rules than the path index's threshold (so that it is built), in the plain subset that
   * long files are written in, with the parts those files use most.
   */
  private static final String RULES = rules();

  private ValidateWarmUp() {}

  /** Starts the warm-up for files of {@code totalBytes} in all: only when they are long. */
  static void forFilesOf(long totalBytes) {
    if (totalBytes < QuickCompiles.LONG_FILE_BYTES) {
      return;
    }
    Thread thread = new Thread(new Runnable() {
      @Override
      public void run() {
        warmUp();
      }
    }, "tollgate-validate-warm-up");
    thread.setDaemon(true);
    thread.start();
  }

  private static void warmUp() {
    try {
      RulesConfig config = RulesFileParser.parse(RULES, "<warm-up>");
      RuleSetFactory.forOneBuild(Clock.system()).build(config, null);
      OutboundRules.check(config);
    } catch (Exception | LinkageError e) {
      // only the loading left to the main thread
    }
  }

  private static String rules() {
    StringBuilder yaml = new StringBuilder("rules:\n");
    for (int i = 1; i <= 20; i++) {
      yaml.append("  - name: warm-up-").append(i).append('\n')
          .append("    match:\n")
          .append("      path: /warm-up/").append(i).append("/**\n");
      if (i % 2 == 0) {
        yaml.append("      methods: [GET, POST]\n");
      }
      yaml.append("    key: ").append(i % 3 == 0 ? "header:X-Api-Key" : "ip").append('\n')
          .append("    limit: ").append(100 + i).append('\n')
          .append("    period: ").append(i % 2 == 0 ? "1m" : "10s").append('\n');
      if (i % 4 == 0) {
        yaml.append("    burst: 20\n");
      }
    }
    return yaml.toString();
  }
}
