package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code java -jar tollgate-agent.jar attach PID config=rules.yaml} into an app that started
 * without the agent and has served requests already: its servlet classes are loaded and must be
 * retransformed. Attaching again switches the rules without instrumenting twice.
 */
class AttachIT {

  private static final Duration ATTACH_TIMEOUT = Duration.ofSeconds(60);

  @TempDir Path dir;

  @Test
  void attachAppliesTheLimitAndASecondAttachSwitchesRulesWithoutInstrumentingTwice()
      throws Exception {
    try (ForkedApp app = ForkedApp.app("servlet-jakarta").start()) {
      // Without the agent: unlimited, and the servlet classes get loaded.
      ItSupport.assertAllowedThenRefused(app, "/hello", 6, 0);
      assertEquals(0, app.agentLog().size(), "no agent yet:\n" + app.output());

      Path first = RulesFiles.helloPerIp(dir, 3);
      CliIT.Result attached = CliIT.run("attach", Long.toString(app.pid()), "config=" + first);
      assertEquals(0, attached.exitCode, attached.out + attached.err);
      assertTrue(attached.out.contains("attached Tollgate to JVM " + app.pid()), attached.out);

      ItSupport.awaitCount(app, "ready; watching", 1, ATTACH_TIMEOUT);
      assertTrue(ItSupport.count(app, "attached to a running JVM") >= 1, app.agentLog().toString());
      assertTrue(ItSupport.count(app, "(already loaded)") >= 1,
          "classes loaded before the attach are retransformed:\n" + app.agentLog());
      long instrumented = ItSupport.count(app, "instrumented ");

      ItSupport.assertAllowedThenRefused(app, "/hello", 3, 2);

      Path second = RulesFiles.write(
          dir,
          "strict.yaml",
          "rules:",
          "  - name: hello-strict",
          "    match:",
          "      path: /hello",
          "    key: ip",
          "    limit: 2",
          "    period: 1h");
      CliIT.Result again = CliIT.run("attach", Long.toString(app.pid()), "config=" + second);
      assertEquals(0, again.exitCode, again.out + again.err);
      ItSupport.awaitCount(app, "attached again; already instrumented", 1, ATTACH_TIMEOUT);
      ItSupport.awaitCount(app, "loaded 1 rule: hello-strict from " + second, 1, ATTACH_TIMEOUT);

      // Exactly two pass: a request counted twice (woven twice) would pass only once.
      ItSupport.assertAllowedThenRefused(app, "/hello", 2, 1);
      assertEquals("hello-strict", ItSupport.header(app.get("/hello"), "Tollgate-Rule"));
      assertEquals(instrumented, ItSupport.count(app, "instrumented "),
          "nothing instrumented again:\n" + String.join("\n", app.agentLog()));
      assertEquals(1, ItSupport.count(app, "ready; watching"), "started once");
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  /**
   * The command waits for the agent's answer: an invalid rules file is exit 1 with the target's
   * errors (path and line) on the operator's terminal, not {@code attached} and 0 with the errors
   * in the application's log only; a valid one is exit 0 and a line naming the rules.
   */
  @Test
  void attachExitsOneWithTheTargetsErrorsWhenTheRulesFileIsInvalidAndZeroWhenItLoads()
      throws Exception {
    try (ForkedApp app = ForkedApp.app("servlet-jakarta").start()) {
      ItSupport.assertAllowedThenRefused(app, "/hello", 1, 0);
      Path invalid = RulesFiles.write(
          dir,
          "invalid.yaml",
          "rules:",
          "  - name: hello",
          "    match:",
          "      path: /hello",
          "    key: ip",
          "    limit: lots",
          "    period: 1m");

      CliIT.Result refused = CliIT.run("attach", Long.toString(app.pid()), "config=" + invalid);
      String said = refused.out + refused.err;
      assertEquals(1, refused.exitCode, said);
      assertTrue(refused.err.contains("ERROR " + invalid + ": line 6"), said);
      assertTrue(refused.err.contains("the rules file " + invalid + " is not in force"), said);
      assertFalse(said.contains("attached Tollgate to JVM " + app.pid() + ":"), said);
      ItSupport.assertAllowedThenRefused(app, "/hello", 4, 0); // no rules: the app is served

      // The same JVM, now with a valid file: exit 0, the rules named on one line.
      Path valid = RulesFiles.helloPerIp(dir, 3);
      CliIT.Result attached = CliIT.run("attach", Long.toString(app.pid()), "config=" + valid);
      assertEquals(0, attached.exitCode, attached.out + attached.err);
      assertTrue(attached.out.contains("attached Tollgate to JVM " + app.pid() + ": loaded 1 rule:"),
          attached.out);
      assertTrue(attached.out.contains(" from " + valid), attached.out);
      assertFalse(attached.err.contains("ERROR"), attached.err);
      ItSupport.assertAllowedThenRefused(app, "/hello", 3, 2);
    }
  }
}
