package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A normal start on Redis: the connection is made before the agent says {@code ready}, so no
 * decision of the first requests falls back to the failure policy, with the default 50 ms timeout
 * on however busy a machine (the start waits for the connection, the requests for the start).
 */
@ExtendWith(RedisServerExtension.class)
class RedisStartupIT {

  @TempDir Path dir;

  @Test
  void theAgentIsReadyOnlyOnceConnectedAndNoDecisionFallsBack(RedisServer redis)
      throws Exception {
    String rule = "startup-" + UUID.randomUUID().toString().substring(0, 8);
    Path rules = RulesFiles.write(dir, "rules.yaml",
        "backend: redis",
        "redis:",
        "  uri: " + redis.uri(),
        "rules:",
        "  - name: " + rule,
        "    match:",
        "      path: /hello",
        "    key: global",
        "    limit: 1000",
        "    period: 1h",
        "    on-failure: deny");
    try (ForkedApp app = ForkedApp.app("servlet-jakarta").withAgent("config=" + rules).start()) {
      // The first request, as early as the app listens: it waits for the agent, not for nothing.
      HttpResponse<String> first = app.get("/hello");
      assertEquals(200, first.statusCode(), "decided by redis, not 503 by on-failure: deny");
      assertTrue(first.headers().firstValue("RateLimit").isPresent(), "quota headers: redis decided");
      app.awaitOutput("ready;", Duration.ofSeconds(60));
      List<String> log = app.agentLog();
      int connected = indexOf(log, "connected to redis");
      int ready = indexOf(log, "ready;");
      assertTrue(connected >= 0 && connected < ready, "connected before ready:\n" + log);
      for (String line : log) {
        assertFalse(line.contains("cannot decide") || line.contains("fell back"), line);
      }
    }
  }

  private static int indexOf(List<String> lines, String text) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(text)) {
        return i;
      }
    }
    return -1;
  }
}
