package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.diagnostics.status.KeyCount;
import io.tollgate.diagnostics.status.OutboundStatus;
import io.tollgate.diagnostics.status.RuleStatus;
import io.tollgate.diagnostics.status.StatusSnapshot;
import io.tollgate.testing.partner.PartnerStub;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code java -jar agent/target/tollgate-agent.jar status PID} as an operator runs it, against a
 * real servlet container started with {@code -javaagent}: the rules, their counts and top keys
 * as the agent counted them; a rules file that stopped applying is a problem (exit 1); a JVM
 * without the agent is exit 3 and still has none afterwards.
 */
class StatusIT {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  @TempDir Path dir;

  private Path rules() throws Exception {
    return RulesFiles.write(dir, "rules.yaml",
        "rules:",
        "  - name: hello-per-ip",
        "    match:",
        "      path: /hello",
        "      methods: [GET]",
        "    key: ip",
        "    algorithm: fixed-window",
        "    limit: 3",
        "    period: 1h",
        "  - name: hello-trial",
        "    mode: shadow",
        "    match:",
        "      path: /hello",
        "    key: ip",
        "    algorithm: sliding-window",
        "    limit: 1",
        "    period: 1h");
  }

  @Test
  void statusShowsEachRuleWithItsCountsAndTopKeysAndAnInvalidReloadIsAProblem() throws Exception {
    Path rules = rules();
    try (ForkedApp app = ForkedApp.app("servlet-jakarta").withAgent("config=" + rules).start()) {
      ItSupport.awaitCount(app, "ready; watching", 1, TIMEOUT);
      ItSupport.assertAllowedThenRefused(app, "/hello", 3, 2);
      String pid = Long.toString(app.pid());

      CliIT.Result json = CliIT.run("status", pid, "--json");
      assertEquals(0, json.exitCode, json.out + json.err);
      StatusSnapshot status = StatusSnapshot.fromJson(json.out.trim());
      assertEquals(app.pid(), status.pid);
      assertEquals(rules.toAbsolutePath().toString(), status.rulesFile);
      assertEquals(List.of(), status.problems);
      assertEquals("local", status.backend.kind);
      // rule, algorithm, limit, mode, allowed, refused, would-refuse
      Object[][] expected = {
          {"hello-per-ip", "fixed-window", "3/1h", false, 3L, 2L, 0L},
          {"hello-trial", "sliding-window", "1/1h", true, 1L, 0L, 4L},
      };
      assertEquals(expected.length, status.rules.size(), json.out);
      for (Object[] row : expected) {
        RuleStatus rule = status.rule((String) row[0]);
        assertEquals(row[1], rule.algorithm, json.out);
        assertEquals(row[2], rule.limit, json.out);
        assertEquals(row[3], rule.shadow, json.out);
        assertEquals(row[4], rule.counter("allowed"), json.out);
        assertEquals(row[5], rule.counter("refused"), json.out);
        assertEquals(row[6], rule.counter("wouldRefuse"), json.out);
      }
      List<KeyCount> top = status.rule("hello-per-ip").keys("refused");
      assertEquals("127.0.0.1", top.get(0).key, json.out);
      assertEquals(2, top.get(0).count, json.out);
      assertTrue(json.out.contains("\"perSecond\":{\"allowed\":0.0"), json.out);

      CliIT.Result text = CliIT.run("status", pid);
      assertEquals(0, text.exitCode, text.out + text.err);
      assertTrue(text.out.contains("hello-per-ip  fixed-window    3/1h   enforce"), text.out);
      assertTrue(text.out.contains("  hello-per-ip: 127.0.0.1=2"), text.out);
      assertTrue(text.out.contains("problems: none"), text.out);

      List<String> watched = watchTwice(pid);
      assertEquals(2, watched.size(), watched.toString());
      for (String line : watched) {
        assertEquals(3, StatusSnapshot.fromJson(line).rule("hello-per-ip").counter("allowed"));
      }

      // Asking changed nothing: the same limit, and not a line in the application's log.
      long linesBefore = app.agentLog().size();
      CliIT.run("status", pid, "--json");
      assertEquals(linesBefore, app.agentLog().size(), String.join("\n", app.agentLog()));
      ItSupport.assertAllowedThenRefused(app, "/hello", 0, 1);
      assertEquals(0, ItSupport.count(app, "attached again"), String.join("\n", app.agentLog()));
      assertEquals(0, ItSupport.count(app, "status command"), String.join("\n", app.agentLog()));
      ServletAppsIT.assertAgentLogClean(app);

      RulesFiles.write(dir, "rules.yaml", "rules:", "  - name: broken", "    limit: lots");
      ItSupport.awaitCount(app, "was not applied", 1, TIMEOUT);
      CliIT.Result problem = CliIT.run("status", pid);
      assertEquals(1, problem.exitCode, problem.out + problem.err);
      assertTrue(problem.out.contains("problems:" + System.lineSeparator()
          + "  the rules file " + rules.toAbsolutePath() + " was not applied"), problem.out);
      assertTrue(problem.out.contains("hello-per-ip"), "the last good rules stay: " + problem.out);
      CliIT.Result problemJson = CliIT.run("status", pid, "--json");
      assertEquals(1, problemJson.exitCode, problemJson.out + problemJson.err);
      assertTrue(problemJson.out.contains("\"ok\":false"), problemJson.out);
    }
  }

  @Test
  void statusShowsEachOutboundRuleWithItsCountsAndThePartnersWaitsInForce() throws Exception {
    Path rules = RulesFiles.write(dir, "outbound.yaml",
        "rules: []",
        "outbound:",
        "  - name: out-fails",
        "    match:",
        "      hosts: 127.0.0.1",
        "      path: /fails/**",
        "    limit: 2",
        "    period: 1h",
        "    on-limit: fail",
        "  - name: out-honours",
        "    match:",
        "      hosts: 127.0.0.1",
        "      path: /honours/**",
        "    algorithm: gcra",
        "    limit: 1000",
        "    period: 1s",
        "    on-limit: fail");
    try (PartnerStub partner = PartnerStub.start(1000, Duration.ofSeconds(1));
        ForkedApp app = ForkedApp.app("outbound-client").withAgent("config=" + rules).start()) {
      app.awaitOutput("[tollgate] ready", TIMEOUT);
      Burst failed = Burst.of(app, "jdk-sync", partner.url("/fails/orders"), 4, 50);
      assertEquals(2, failed.count("200"), failed.toString());
      partner.refuseNext(1, 30);
      Burst refused = Burst.of(app, "jdk-sync", partner.url("/honours/orders"), 1, 5);
      assertEquals(1, refused.count("429"), refused.toString());
      String pid = Long.toString(app.pid());

      CliIT.Result json = CliIT.run("status", pid, "--json");
      assertEquals(0, json.exitCode, json.out + json.err);
      StatusSnapshot status = StatusSnapshot.fromJson(json.out.trim());
      // rule, algorithm, limit, mode, sent, failed fast, partner 429s, holds in force
      Object[][] expected = {
          {"out-fails", "token-bucket", "2/1h", "enforce, on-limit fail", 2L, 2L, 0L, 0},
          {"out-honours", "gcra", "1000/1s", "enforce, on-limit fail", 1L, 0L, 1L, 1},
      };
      assertEquals(expected.length, status.outbound.size(), json.out);
      for (Object[] row : expected) {
        OutboundStatus rule = status.outboundRule((String) row[0]);
        assertEquals(row[1], rule.algorithm, json.out);
        assertEquals(row[2], rule.limit, json.out);
        assertEquals(row[3], rule.mode(), json.out);
        assertEquals(row[4], rule.counter("sent"), json.out);
        assertEquals(row[5], rule.counter("failedFast"), json.out);
        assertEquals(row[6], rule.counter("partner429s"), json.out);
        assertEquals(row[7], rule.holds.size(), json.out);
      }
      OutboundStatus.Hold hold = status.outboundRule("out-honours").holds.get(0);
      assertEquals("127.0.0.1:" + partner.port() + " answered 429 with Retry-After, asking to"
          + " wait 30s", hold.answer, json.out);
      assertTrue(hold.learntHere, json.out);
      assertTrue(json.out.contains("\"perSecond\":{\"sent\":"), json.out);

      CliIT.Result text = CliIT.run("status", pid);
      assertEquals(0, text.exitCode, text.out + text.err);
      assertTrue(text.out.contains("OUTBOUND RULE"), text.out);
      assertTrue(text.out.contains("out-fails      token-bucket  2/1h     enforce, on-limit fail"),
          text.out);
      assertTrue(text.out.contains("partner holds in force:" + System.lineSeparator()
          + "  out-honours: held until "), text.out);
      assertTrue(text.out.contains("; 127.0.0.1:" + partner.port() + " answered 429 with"
          + " Retry-After, asking to wait 30s; learnt by this instance"), text.out);
    }
  }

  /** {@code status --watch 1 --json}: one object a refresh, until stopped. */
  private static List<String> watchTwice(String pid) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Jdk.current().javaExecutable());
    command.add("-jar");
    command.add(TestPaths.agentJar().getAbsolutePath());
    command.addAll(List.of("status", pid, "--watch", "1", "--json"));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while (lines.size() < 2 && (line = out.readLine()) != null) {
        lines.add(line);
      }
    } finally {
      process.destroy(); // as Ctrl-C stops it
      assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    }
    return lines;
  }

  @Test
  void aJvmWithoutTheAgentIsExitThreeAndGetsNone() throws Exception {
    try (ForkedApp app = ForkedApp.app("servlet-jakarta").start()) {
      assertEquals(200, app.get("/hello").statusCode());
      String pid = Long.toString(app.pid());
      for (int attempt = 1; attempt <= 2; attempt++) {
        // The second time too: the first installed nothing that could answer
        CliIT.Result none = CliIT.run("status", pid);
        assertEquals(3, none.exitCode, none.out + none.err);
        assertTrue(none.err.contains("no Tollgate agent answers in JVM " + pid), none.err);
        assertFalse(none.out.contains("Tollgate"), none.out);
      }
      assertEquals(List.of(), app.agentLog(), "no agent started:\n" + app.output());
      ItSupport.assertAllowedThenRefused(app, "/hello", 10, 0);
      assertNull(ItSupport.header(app.get("/hello"), "RateLimit-Policy"));
    }
  }

  /** status PID, the command line's mistakes: exit 2; a process that is not there: exit 3. */
  @Test
  void usageErrorsAreExitTwoAndNoProcessIsExitThree() throws Exception {
    Object[][] cases = {
        {new String[] {"status"}, 2, "name the process id"},
        {new String[] {"status", "abc"}, 2, "'abc' is not a process id"},
        {new String[] {"status", "1", "--wat"}, 2, "unknown option '--wat'"},
        {new String[] {"status", "1", "2"}, 2, "one process id only"},
        {new String[] {"status", "999999999"}, 3, "no process with id 999999999"},
    };
    for (Object[] c : cases) {
      CliIT.Result result = CliIT.run((String[]) c[0]);
      assertEquals(c[1], result.exitCode, result.out + result.err);
      assertTrue(result.err.contains((String) c[2]), result.err);
    }
  }
}
