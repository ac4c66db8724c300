package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent says which frameworks it found, and warns when it found none. */
class DiagnosticsIT {

  @TempDir Path dir;

  @Test
  void eachFrameworkIsLoggedOnce() throws Exception {
    Path rules = RulesFiles.helloPerIp(dir, 5);
    try (ForkedApp app = ForkedApp.app("spring-boot3").withAgent("config=" + rules).start()) {
      assertEquals(200, app.get("/hello").statusCode());
      ItSupport.awaitCount(app, "detected Spring MVC", 1, Duration.ofSeconds(30));
      ItSupport.awaitCount(app, "detected a Servlet container (jakarta.servlet)", 1,
          Duration.ofSeconds(30));
      assertEquals(200, app.get("/hello").statusCode());
      assertEquals(1, ItSupport.count(app, "detected Spring MVC"), "logged once");
      assertEquals(1, ItSupport.count(app, "detected a Servlet container"), "logged once");
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  @Test
  void aRuleKeyedByRouteOnPlainServletsIsSaidToCountNothing() throws Exception {
    Path rules = RulesFiles.write(dir, "rules.yaml",
        "rules:",
        "  - name: per-route",
        "    match:",
        "      path: /hello",
        "    key: route",
        "    limit: 1",
        "    period: 1h");
    try (ForkedApp app = ForkedApp.app("servlet-jakarta").withAgent("config=" + rules).start()) {
      ItSupport.assertAllowedThenRefused(app, "/hello", 100, 0);
      String warning = ItSupport.awaitCount(app, "rule 'per-route' needs the request's route",
          1, Duration.ofSeconds(30));
      assertTrue(warning.contains("[tollgate] WARN") && warning.contains("Match by path"), warning);
    }
  }

  @Test
  void aRouteRuleAddedByAReloadAfterTheFirstRequestsIsSaidToCountNothingToo() throws Exception {
    Path rules = RulesFiles.write(dir, "rules.yaml",
        "rules:",
        "  - name: per-path",
        "    match:",
        "      path: /hello",
        "    key: ip",
        "    limit: 1000",
        "    period: 1h");
    try (ForkedApp app = ForkedApp.app("servlet-jakarta").withAgent("config=" + rules).start()) {
      ItSupport.assertAllowedThenRefused(app, "/hello", 100, 0);
      RulesFiles.write(dir, "rules.yaml",
          "rules:",
          "  - name: per-route",
          "    match:",
          "      path: /hello",
          "    key: route",
          "    limit: 1",
          "    period: 1h");
      ItSupport.awaitCount(app, "reloaded 1 rule: per-route", 1, Duration.ofSeconds(30));
      assertEquals(200, app.get("/hello").statusCode());
      String warning = ItSupport.awaitCount(app, "rule 'per-route' needs the request's route",
          1, Duration.ofSeconds(30));
      assertTrue(warning.contains("[tollgate] WARN") && warning.contains("Match by path"), warning);
    }
  }

  @Test
  void noWarningWhenAnEntryPointWasFound() throws Exception {
    // Attached to an app that is already serving: its servlet classes are retransformed during
    // the attach, before the watch starts, so even a 1 s watch must find them.
    try (ForkedApp app = ForkedApp.app("servlet-jakarta").start()) {
      assertEquals(200, app.get("/hello").statusCode());
      Path rules = RulesFiles.helloPerIp(dir, 5);
      CliIT.Result attached = CliIT.run("attach", Long.toString(app.pid()), "config=" + rules,
          "entry-point-warning-after=1s");
      assertEquals(0, attached.exitCode, attached.out + attached.err);
      ItSupport.awaitCount(app, "detected a Servlet container (jakarta.servlet)", 1,
          Duration.ofSeconds(60));
      ItSupport.awaitCount(app, "ready; watching", 1, Duration.ofSeconds(60));
      Thread.sleep(3_000);
      assertEquals(0, ItSupport.count(app, "no supported entry point"),
          String.join("\n", app.agentLog()));
    }
  }

  @Test
  void aJvmWithoutAnyWebFrameworkGetsAWarning() throws Exception {
    Path rules = RulesFiles.helloPerIp(dir, 5);
    List<String> command = new ArrayList<>();
    command.add(new File(System.getProperty("java.home"), "bin/java").getAbsolutePath());
    command.add("-javaagent:" + TestPaths.agentJar().getAbsolutePath() + "=config=" + rules
        + ",entry-point-warning-after=1s");
    command.add("-cp");
    command.add(new File(IdleMain.class.getProtectionDomain().getCodeSource().getLocation().toURI())
        .getAbsolutePath());
    command.add(IdleMain.class.getName());
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    List<String> lines = new CopyOnWriteArrayList<>();
    Thread pump = new Thread(() -> {
      try (BufferedReader reader = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = reader.readLine()) != null) {
          lines.add(line);
        }
      } catch (Exception ignored) {
        // ended
      }
    });
    pump.setDaemon(true);
    pump.start();
    try {
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      String warning = null;
      while (warning == null && System.nanoTime() < deadline) {
        for (String line : lines) {
          if (line.contains("no supported entry point")) {
            warning = line;
          }
        }
        Thread.sleep(100);
      }
      assertTrue(warning != null, "a warning within 60 s; output:\n" + String.join("\n", lines));
      assertTrue(warning.startsWith("[tollgate] WARN"), warning);
      assertTrue(warning.contains("Servlet, Spring MVC, Jersey"), warning);
    } finally {
      process.destroy();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }
}
