package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Agent options as operators mistype them: every unknown or malformed option is an ERROR naming
 * it, on {@code -javaagent} and on {@code attach} alike; a lone path is the rules file; and
 * {@code fail-on-error=true} stops a JVM that would otherwise run without its limits.
 */
class AgentOptionsIT {

  private static final String APP = "servlet-jakarta";
  private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(90);

  @TempDir Path dir;

  @Test
  void aMistypedOptionNameIsAnErrorWithAHint() throws Exception {
    Path rules = helloTwicePerHour();
    try (ForkedApp app = ForkedApp.app(APP).withAgent("conifg=" + rules + ",debgu=true").start()) {
      String config = ItSupport.awaitCount(app, "unknown option 'conifg'", 1,
          ItSupport.RELOAD_TIMEOUT);
      assertTrue(config.startsWith("[tollgate] ERROR ") && config.contains("did you mean 'config'?"),
          config);
      String debug = ItSupport.awaitCount(app, "unknown option 'debgu'", 1,
          ItSupport.RELOAD_TIMEOUT);
      assertTrue(debug.startsWith("[tollgate] ERROR ") && debug.contains("did you mean 'debug'?"),
          debug);
      // The app still runs, without limits (and says so), as the agent never breaks it.
      ItSupport.awaitCount(app, "ready; watching no rules file", 1, ItSupport.RELOAD_TIMEOUT);
      ItSupport.assertAllowedThenRefused(app, "/hello", 4, 0);
    }
  }

  @Test
  void aMalformedValueIsAnErrorNamingIt() throws Exception {
    Path rules = helloTwicePerHour();
    try (ForkedApp app = ForkedApp.app(APP)
        .withAgent("config=" + rules + ",debug=yes,entry-point-warning-after=soon").start()) {
      String debug = ItSupport.awaitCount(app, "option debug=yes", 1, ItSupport.RELOAD_TIMEOUT);
      assertTrue(debug.startsWith("[tollgate] ERROR ") && debug.contains("expected true or false"),
          debug);
      ItSupport.awaitCount(app, "option entry-point-warning-after=soon: expected a duration", 1,
          ItSupport.RELOAD_TIMEOUT);
      // The options that are right still apply.
      ItSupport.assertAllowedThenRefused(app, "/hello", 2, 1);
    }
  }

  @Test
  void aLonePathIsTheRulesFile() throws Exception {
    Path rules = helloTwicePerHour();
    try (ForkedApp app = ForkedApp.app(APP).withAgent(rules.toString()).start()) {
      ItSupport.assertAllowedThenRefused(app, "/hello", 2, 1);
      ItSupport.awaitCount(app, "loaded 1 rule: hello-per-ip from " + rules, 1,
          ItSupport.RELOAD_TIMEOUT);
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  @Test
  void failOnErrorStopsTheJvmWhenTheRulesCannotBeUsed() throws Exception {
    Path broken = RulesFiles.write(dir, "broken.yaml",
        "rules:",
        "  - name: hello-per-ip",
        "    limit: lots",
        "    period: 1m");
    Exit exit = runUntilExit("config=" + broken + ",fail-on-error=true");
    assertEquals(1, exit.code, exit.output);
    assertTrue(exit.output.contains("[tollgate] ERROR " + broken + ": line 3"), exit.output);
    assertTrue(exit.output.contains("[tollgate] ERROR fail-on-error=true: no rules are in force;"
        + " stopping the JVM (exit status 1)"), exit.output);

    Exit missing = runUntilExit("config=" + dir.resolve("missing.yaml") + ",fail-on-error=true");
    assertEquals(1, missing.code, missing.output);
    assertTrue(missing.output.contains("does not exist"), missing.output);
  }

  @Test
  void failOnErrorStopsTheJvmOnAMistypedOption() throws Exception {
    Path rules = helloTwicePerHour();
    Exit exit = runUntilExit("config=" + rules + ",fail-on-error=true,metrics-prot=9464");
    assertEquals(1, exit.code, exit.output);
    assertTrue(exit.output.contains("did you mean 'metrics-port'?"), exit.output);
    assertTrue(!exit.output.contains("listening on port"),
        "stopped in premain, before the application ran:\n" + exit.output);
  }

  @Test
  void failOnErrorWithGoodRulesRunsAsUsual() throws Exception {
    Path rules = helloTwicePerHour();
    try (ForkedApp app =
        ForkedApp.app(APP).withAgent("config=" + rules + ",fail-on-error=true").start()) {
      ItSupport.assertAllowedThenRefused(app, "/hello", 2, 1);
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  @Test
  void attachRefusesAMalformedValueAndKeepsWhatAnEarlierAttachSet() throws Exception {
    Path rules = RulesFiles.helloPerIp(dir, 100);
    try (ForkedApp app = ForkedApp.app(APP).start()) {
      ItSupport.assertAllowedThenRefused(app, "/hello", 1, 0);
      String pid = Long.toString(app.pid());
      CliIT.Result first = CliIT.run("attach", pid, "config=" + rules, "debug=true");
      assertEquals(0, first.exitCode, first.out + first.err);
      ItSupport.awaitCount(app, "ready; watching", 1, Duration.ofSeconds(60));

      CliIT.Result typo = CliIT.run("attach", pid, "debug=yes");
      assertEquals(2, typo.exitCode, typo.out + typo.err);
      assertTrue(typo.err.contains("option debug=yes: expected true or false, got 'yes'"),
          typo.err);
      CliIT.Result missing = CliIT.run("attach", pid, "config=" + dir.resolve("missing.yaml"));
      assertEquals(2, missing.exitCode, missing.out + missing.err);
      assertTrue(missing.err.contains("the rules file " + dir.resolve("missing.yaml")
          + " does not exist"), missing.err);

      // An attach that names only the rules file leaves debug on, as the first attach set it.
      Path other = RulesFiles.write(dir, "other.yaml",
          "rules:",
          "  - name: hello-other",
          "    match: { path: /hello }",
          "    limit: 100",
          "    period: 1m");
      CliIT.Result again = CliIT.run("attach", pid, other.toString());
      assertEquals(0, again.exitCode, again.out + again.err);
      ItSupport.awaitCount(app, "loaded 1 rule: hello-other from " + other, 1,
          Duration.ofSeconds(60));
      app.get("/hello");
      ItSupport.awaitCount(app, "DEBUG allowed GET /hello; rule 'hello-other'", 1,
          Duration.ofSeconds(30));
    }
  }

  @Test
  void attachWithFailOnErrorRefusesRulesThatDoNotValidate() throws Exception {
    Path broken = RulesFiles.write(dir, "broken.yaml",
        "rules:",
        "  - name: hello-per-ip",
        "    perod: 1m");
    try (ForkedApp app = ForkedApp.app(APP).start()) {
      CliIT.Result result = CliIT.run("attach", Long.toString(app.pid()), "config=" + broken,
          "fail-on-error=true");
      assertEquals(1, result.exitCode, result.out + result.err);
      assertTrue(result.err.contains("did you mean 'period'?"), result.err);
      assertTrue(result.err.contains("fail-on-error=true: the rules file does not validate;"
          + " not attached"), result.err);
      assertEquals(0, app.agentLog().size(), "nothing attached:\n" + app.output());
    }
  }

  /** A limit that does not refill during a test, however slow the machine. */
  private Path helloTwicePerHour() throws Exception {
    return RulesFiles.write(dir, "rules.yaml",
        "rules:",
        "  - name: hello-per-ip",
        "    match: { path: /hello, methods: [GET] }",
        "    key: ip",
        "    limit: 2",
        "    period: 1h");
  }

  static final class Exit {
    final int code;
    final String output;

    Exit(int code, String output) {
      this.code = code;
      this.output = output;
    }
  }

  /** Starts the app with the agent and waits for the JVM to end by itself. */
  private Exit runUntilExit(String agentArguments) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Jdk.current().javaExecutable());
    command.add("-Xmx256m");
    command.add("-javaagent:" + TestPaths.agentJar().getAbsolutePath() + "=" + agentArguments);
    command.add("-jar");
    command.add(TestPaths.testAppJar(APP).getAbsolutePath());
    File output = dir.resolve("output-" + System.nanoTime() + ".txt").toFile();
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(output);
    builder.environment().put("PORT", Integer.toString(ForkedApp.freePort()));
    builder.environment().remove("TOLLGATE_CONFIG");
    Process process = builder.start();
    try {
      boolean ended = process.waitFor(EXIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      String text = new String(Files.readAllBytes(output.toPath()), StandardCharsets.UTF_8);
      assertTrue(ended, "the JVM still runs after " + EXIT_TIMEOUT + ":\n" + text);
      return new Exit(process.exitValue(), text);
    } finally {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
