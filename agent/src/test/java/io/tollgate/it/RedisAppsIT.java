package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.testing.redis.PrivateRedis;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several app instances on one Redis: one limit for all of them, not one each; and a Redis outage
 * handled per rule, without hanging a request, until Redis is back.
 */
@ExtendWith(RedisServerExtension.class)
class RedisAppsIT {

  private static final String APP = "servlet-jakarta";

  @TempDir Path dir;

  /**
   * A generous timeout: these tests count exact decisions on a machine that may be busy, where a
   * slow answer would (correctly) fall back to the on-failure policy.
   */
  private Path rules(RedisServer redis, String name, int limit) throws Exception {
    return rules(redis, name, limit, "2s");
  }

  private Path rules(RedisServer redis, String name, int limit, String timeout) throws Exception {
    return RulesFiles.write(
        dir,
        name + ".yaml",
        "backend: redis",
        "redis:",
        "  uri: " + redis.uri(),
        "  timeout: " + timeout,
        "rules:",
        "  - name: " + name,
        "    match:",
        "      path: /hello",
        "      methods: [GET]",
        "    key: global",
        "    limit: " + limit,
        "    period: 1h",
        "    on-failure: allow",
        "  - name: " + name + "-deny",
        "    match:",
        "      path: /api/search",
        "    key: global",
        "    limit: 1000",
        "    period: 1h",
        "    on-failure: deny");
  }

  private List<ForkedApp> startThree(Path rules) throws Exception {
    ExecutorService starter = Executors.newFixedThreadPool(3);
    try {
      List<Future<ForkedApp>> starts = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        starts.add(starter.submit(
            () -> ForkedApp.app(APP).withAgent("config=" + rules).start()));
      }
      List<ForkedApp> apps = new ArrayList<>();
      for (Future<ForkedApp> start : starts) {
        apps.add(start.get(180, TimeUnit.SECONDS));
      }
      return apps;
    } finally {
      starter.shutdown();
    }
  }

  private static void closeAll(List<ForkedApp> apps) throws InterruptedException {
    for (ForkedApp app : apps) {
      app.close();
    }
  }

  @Test
  void threeInstancesRoundRobinShareOneLimitOfFive(RedisServer redis) throws Exception {
    String rule = "shared-" + UUID.randomUUID().toString().substring(0, 8);
    List<ForkedApp> apps = startThree(rules(redis, rule, 5));
    try {
      int allowed = 0;
      for (int i = 0; i < 12; i++) {
        int status = apps.get(i % 3).get("/hello").statusCode();
        assertTrue(status == 200 || status == 429, "status " + status);
        allowed += status == 200 ? 1 : 0;
      }
      assertEquals(5, allowed, "5 in total across 3 instances, not 5 each");
      for (ForkedApp app : apps) {
        ServletAppsIT.assertAgentLogClean(app);
      }
    } finally {
      closeAll(apps);
    }
  }

  /**
   * On JDK 25 the Redis client runs its Netty without {@code sun.misc.Unsafe}, so the application's
   * standard error gets no "terminally deprecated method" warnings naming it, and limits hold.
   */
  @Test
  void onJdk25TheRedisClientLimitsWithoutUnsafeWarnings(RedisServer redis) throws Exception {
    String rule = "jdk25-" + UUID.randomUUID().toString().substring(0, 8);
    try (ForkedApp app = ForkedApp.app(APP).on(Jdk.jdk25())
        .withAgent("config=" + rules(redis, rule, 3)).start()) {
      ItSupport.assertAllowedThenRefused(app, "/hello", 3, 2);
      ServletAppsIT.assertAgentLogClean(app);
      for (String line : app.output()) {
        assertTrue(!line.contains("sun.misc.Unsafe"),
            "no Unsafe warning: " + line + "\n" + String.join("\n", app.output()));
      }
    }
  }

  @Test
  void concurrentRequestsOverThreeInstancesGetExactlyTheLimit(RedisServer redis)
      throws Exception {
    String rule = "race-" + UUID.randomUUID().toString().substring(0, 8);
    List<ForkedApp> apps = startThree(rules(redis, rule, 25));
    ExecutorService clients = Executors.newFixedThreadPool(12);
    try {
      List<Callable<Integer>> requests = new ArrayList<>();
      for (int i = 0; i < 90; i++) {
        ForkedApp app = apps.get(i % 3);
        // each on a connection of its own: 12 threads back to back (see RawHttp.getStatus)
        requests.add(() -> RawHttp.getStatus(app.port(), "/hello"));
      }
      int allowed = 0;
      for (Future<Integer> status : clients.invokeAll(requests)) {
        allowed += status.get() == 200 ? 1 : 0;
      }
      assertEquals(25, allowed, "90 concurrent requests over 3 instances, limit 25");
    } finally {
      clients.shutdown();
      closeAll(apps);
    }
  }

  @Test
  void redisDownAllowRulesPassDenyRulesAnswer503ThenLimitsReturn(@PrivateRedis RedisServer redis)
      throws Exception {
    String rule = "outage-" + UUID.randomUUID().toString().substring(0, 8);
    try (ForkedApp app = ForkedApp.app(APP).withAgent("config=" + rules(redis, rule, 1000, "100ms"))
        .start()) {
      HttpResponse<String> before = app.get("/api/search");
      assertEquals(200, before.statusCode());
      assertTrue(before.headers().firstValue("RateLimit").isPresent(), "Redis decided");

      redis.kill();
      for (int i = 0; i < 20; i++) {
        // The client's own timeout bounds every request: none may hang on the dead server.
        assertEquals(200, app.get("/hello").statusCode(), "on-failure: allow passes");
        HttpResponse<String> denied = app.get("/api/search");
        assertEquals(503, denied.statusCode(), "on-failure: deny refuses with 503");
        assertTrue(Long.parseLong(denied.headers().firstValue("Retry-After").orElse("0")) >= 1);
        assertTrue(denied.body().contains("\"status\":503"), denied.body());
        assertTrue(denied.body().contains("#temporary-reduced-capacity\""), denied.body());
        assertTrue(denied.headers().firstValue("RateLimit").isEmpty(),
            "no quota headers when the quota is unknown");
      }

      redis.restart();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      int status = 0;
      while (System.nanoTime() < deadline) {
        status = app.get("/api/search").statusCode();
        if (status == 200) {
          break;
        }
        Thread.sleep(200);
      }
      assertEquals(200, status, "decisions succeed again once Redis is back");
      assertTrue(app.get("/api/search").headers().firstValue("RateLimit").isPresent());
      assertTrue(app.agentLog().stream().noneMatch(l -> l.contains("internal error")),
          String.join("\n", app.agentLog()));
    }
  }

  @Test
  void theSameRuleGivesTheSameDecisionsLocallyAndOnRedis(RedisServer redis) throws Exception {
    String rule = "same-" + UUID.randomUUID().toString().substring(0, 8);
    Path onRedis = rules(redis, rule, 4);
    Path local = RulesFiles.write(dir, "local.yaml",
        "rules:",
        "  - name: " + rule,
        "    match:",
        "      path: /hello",
        "      methods: [GET]",
        "    key: global",
        "    limit: 4",
        "    period: 1h");
    List<Integer> redisStatuses = new ArrayList<>();
    List<Integer> localStatuses = new ArrayList<>();
    try (ForkedApp a = ForkedApp.app(APP).withAgent("config=" + onRedis).start();
        ForkedApp b = ForkedApp.app(APP).withAgent("config=" + local).start()) {
      for (int i = 0; i < 7; i++) {
        redisStatuses.add(a.get("/hello").statusCode());
        localStatuses.add(b.get("/hello").statusCode());
      }
    }
    assertEquals(List.of(200, 200, 200, 200, 429, 429, 429), localStatuses);
    assertEquals(localStatuses, redisStatuses);
  }

  /**
   * Each algorithm on Redis through two instances: one limit for both; and concurrency permits,
   * taken on one instance or the other, all given back when the requests end.
   */
  @Test
  void everyAlgorithmSharesItsLimitAcrossInstances(RedisServer redis) throws Exception {
    String id = UUID.randomUUID().toString().substring(0, 8);
    String[][] rules = {
      // name, algorithm, path, limit, period
      {"log-" + id, "sliding-log", "/hello", "3", "1h"},
      {"gcra-" + id, "gcra", "/api/search", "3", "1h"},
      {"sw-" + id, "sliding-window", "/health", "3", "1h"},
      {"fw-" + id, "fixed-window", "/whoami", "3", "1d"},
      {"permits-" + id, "concurrency", "/api/export", "1", "1m"},
    };
    List<String> lines = new ArrayList<>(List.of(
        "backend: redis", "redis:", "  uri: " + redis.uri(), "  timeout: 2s", "rules:"));
    for (String[] r : rules) {
      lines.addAll(List.of(
          "  - name: " + r[0],
          "    algorithm: " + r[1],
          "    match:",
          "      path: " + r[2],
          "      methods: [GET]",
          "    key: global",
          "    limit: " + r[3],
          "    period: " + r[4],
          "    on-failure: deny"));
    }
    Path file = RulesFiles.write(dir, "algorithms.yaml", lines.toArray(new String[0]));
    try (ForkedApp a = ForkedApp.app(APP).withAgent("config=" + file).start();
        ForkedApp b = ForkedApp.app(APP).withAgent("config=" + file).start()) {
      ForkedApp[] apps = {a, b};
      for (String[] r : rules) {
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
          statuses.add(apps[i % 2].get(r[2]).statusCode());
        }
        if (r[1].equals("concurrency")) {
          assertEquals(List.of(200, 200, 200, 200, 200, 200), statuses,
              "one at a time: every permit given back, on either instance");
          assertEquals(List.of(), redis.call("KEYS", "tollgate:{" + r[0] + ":*"),
              "no permit left held on Redis");
        } else {
          assertEquals(List.of(200, 200, 200, 429, 429, 429), statuses,
              r[1] + ": 3 across both instances");
        }
      }
      ServletAppsIT.assertAgentLogClean(a);
      ServletAppsIT.assertAgentLogClean(b);
    }
  }
}
