package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mode: shadow}, per rule and for the whole file: decide and log, never refuse. */
class ShadowModeIT {

  @TempDir Path dir;

  @Test
  void aShadowRuleLetsEveryRequestPassAndLogsWhatItWouldRefuse() throws Exception {
    Path rules = RulesFiles.write(
        dir,
        "rules.yaml",
        "rules:",
        "  - name: hello-shadow",
        "    match:",
        "      path: /hello",
        "    key: ip",
        "    limit: 2",
        "    period: 1h",
        "    mode: shadow",
        "  - name: orders-enforced",
        "    match:",
        "      path: /api/orders/*",
        "    key: ip",
        "    limit: 1",
        "    period: 1h");
    try (ForkedApp app = ForkedApp.app("servlet-jakarta").withAgent("config=" + rules).start()) {
      assertTrue(ItSupport.count(app, "hello-shadow (shadow)") >= 1, app.agentLog().toString());
      ItSupport.assertAllowedThenRefused(app, "/hello", 8, 0);
      assertWouldRefuseLogged(app, "hello-shadow");
      // The other rule of the same file still enforces.
      ItSupport.assertAllowedThenRefused(app, "/api/orders/1", 1, 1);
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  @Test
  void theGlobalShadowModeAppliesToEveryRule() throws Exception {
    Path rules = RulesFiles.write(
        dir,
        "rules.yaml",
        "mode: shadow",
        "rules:",
        "  - name: hello-per-ip",
        "    match:",
        "      path: /hello",
        "    key: ip",
        "    limit: 2",
        "    period: 1h",
        "  - name: orders-per-ip",
        "    match:",
        "      path: /api/orders/*",
        "    key: ip",
        "    limit: 1",
        "    period: 1h");
    try (ForkedApp app = ForkedApp.app("servlet-jakarta").withAgent("config=" + rules).start()) {
      ItSupport.assertAllowedThenRefused(app, "/hello", 6, 0);
      ItSupport.assertAllowedThenRefused(app, "/api/orders/7", 4, 0);
      assertWouldRefuseLogged(app, "hello-per-ip");
      assertWouldRefuseLogged(app, "orders-per-ip");
      assertEquals(200, app.get("/hello").statusCode());
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  @Test
  void removingShadowModeEnforcesTheRuleWithItsCountsKept() throws Exception {
    Path rules = RulesFiles.write(
        dir,
        "rules.yaml",
        "rules:",
        "  - name: hello-trial",
        "    match:",
        "      path: /hello",
        "    key: ip",
        "    limit: 2",
        "    period: 1h",
        "    mode: shadow");
    try (ForkedApp app = ForkedApp.app("servlet-jakarta").withAgent("config=" + rules).start()) {
      ItSupport.assertAllowedThenRefused(app, "/hello", 4, 0);
      assertWouldRefuseLogged(app, "hello-trial");

      // The operator's next step: drop 'mode: shadow' (an in-place edit, picked up by the watcher).
      RulesFiles.write(
          dir,
          "rules.yaml",
          "rules:",
          "  - name: hello-trial",
          "    match:",
          "      path: /hello",
          "    key: ip",
          "    limit: 2",
          "    period: 1h");
      ItSupport.awaitCount(app, "rule 'hello-trial' is now enforced", 1, ItSupport.RELOAD_TIMEOUT);
      assertEquals(0, ItSupport.count(app, "counts start afresh"), "same counting: counts kept");
      // The two tokens were spent in shadow mode: the very next request is refused.
      ItSupport.assertAllowedThenRefused(app, "/hello", 0, 2);
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  private static void assertWouldRefuseLogged(ForkedApp app, String rule) throws Exception {
    String line = ItSupport.awaitCount(app, "rule '" + rule + "' would refuse key", 1,
        Duration.ofSeconds(10));
    assertTrue(line.contains("127.0.0.1"), "the key (the client address) is shown: " + line);
  }
}
