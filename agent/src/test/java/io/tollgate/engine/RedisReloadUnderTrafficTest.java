package io.tollgate.engine;

import static io.tollgate.testing.Conditions.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.limiters.Clock;
import io.tollgate.rules.RuleSetFactory;
import io.tollgate.stores.redis.FailurePolicyStore;
import io.tollgate.stores.redis.RedisBackend;
import io.tollgate.stores.redis.RedisKeys;
import io.tollgate.testing.redis.PrivateRedis;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reloads of a {@code backend: redis} rules file while requests are being decided: a reload never
 * refuses a request the old rules would have allowed. A change of {@code timeout} (or {@code
 * max-wait}) keeps the connection and every count; a switch to {@code backend: local} closes the
 * Redis client, its threads and its instance registration. The rule {@code api} is on
 * {@code on-failure: deny} with a limit no traffic reaches, so any 503 is the reload's doing.
 */
@ExtendWith(RedisServerExtension.class)
class RedisReloadUnderTrafficTest {

  private static final int TRAFFIC_THREADS = 4;

  @TempDir Path dir;

  private static String rules(RedisServer server, String backend, String timeout) {
    return "backend: " + backend + "\n"
        + ("redis".equals(backend)
            ? "redis:\n  uri: " + server.uri() + "\n  timeout: " + timeout + "\n"
            : "")
        + "rules:\n"
        + "  - name: api\n    match: { path: /api/** }\n    key: ip\n"
        + "    limit: 1000000\n    period: 1s\n    on-failure: deny\n"
        + "  - name: quota\n    match: { path: /quota/** }\n    key: ip\n"
        + "    limit: 10\n    period: 1h\n    on-failure: deny\n";
  }

  @Test
  void reloadsThatChangeOnlyTheTimeoutRefuseNobodyAndKeepEveryCount(
      @PrivateRedis RedisServer server) throws Exception {
    Path file = dir.resolve("rules.yaml");
    write(file, rules(server, "redis", "50ms"));
    RulesHolder holder = new RulesHolder(new RuleSetFactory(Clock.system()));
    assertTrue(holder.useFile(file.toString()));
    RedisBackend backend = backendOf(holder);
    assertTrue(backend.awaitConnected(java.time.Duration.ofSeconds(20)));
    assertEquals(6, passing(holder, "/quota/x", "198.51.100.7", 6), "6 of the hour's 10 used");

    try (Traffic traffic = new Traffic(holder)) {
      traffic.awaitDecisions(200);
      String[] timeouts = {"60ms", "70ms", "80ms", "90ms", "100ms", "50ms"};
      for (String timeout : timeouts) {
        long before = traffic.decided.get();
        write(file, rules(server, "redis", timeout));
        assertTrue(holder.reloadIfChanged(), "reloaded with timeout " + timeout);
        assertSame(backend, backendOf(holder), "the connection is kept");
        traffic.awaitDecisions(before + 100);
      }
      traffic.stop();
      assertEquals(0, traffic.unavailable.get(), traffic + ": no 503 from a reload");
      assertEquals(0, traffic.refused.get(), traffic.toString());
    }
    assertEquals(4, passing(holder, "/quota/x", "198.51.100.7", 7),
        "the key's count was kept: 4 of the hour's 10 left");
    assertTrue(backend.isConnected());
    backend.close();
  }

  @Test
  void aReloadFromRedisToLocalClosesTheClientAndItsRegistration(
      @PrivateRedis RedisServer server) throws Exception {
    Path file = dir.resolve("rules.yaml");
    write(file, rules(server, "redis", "50ms"));
    RulesHolder holder = new RulesHolder(new RuleSetFactory(Clock.system()));
    assertTrue(holder.useFile(file.toString()));
    RedisBackend backend = backendOf(holder);
    assertTrue(backend.awaitConnected(java.time.Duration.ofSeconds(20)));
    String instances = RedisKeys.instancesKey("default");
    awaitTrue(() -> Long.valueOf(1).equals(server.call("ZCARD", instances)),
        "this instance is registered");

    try (Traffic traffic = new Traffic(holder)) {
      traffic.awaitDecisions(200);
      long before = traffic.decided.get();
      write(file, rules(server, "local", "50ms"));
      assertTrue(holder.reloadIfChanged(), "reloaded on backend: local");
      traffic.awaitDecisions(before + 200);
      traffic.stop();
      assertEquals(0, traffic.unavailable.get(), traffic + ": no 503 from the switch");
    }
    awaitTrue(backend::isClosed, "the redis client and its threads are closed");
    assertEquals(0L, server.call("ZCARD", instances), "its instance registration is gone");
  }

  /**
   * Another server: connected before the swap (the first decision on the new rules finds it
   * ready), the old client closed once the decisions on it have ended, no 503 meanwhile.
   */
  @Test
  void aReloadToAnotherServerConnectsItBeforeTheSwapAndClosesTheOldAfter(
      @PrivateRedis RedisServer first, @PrivateRedis RedisServer second) throws Exception {
    Path file = dir.resolve("rules.yaml");
    write(file, rules(first, "redis", "50ms"));
    RulesHolder holder = new RulesHolder(new RuleSetFactory(Clock.system()));
    assertTrue(holder.useFile(file.toString()));
    RedisBackend old = backendOf(holder);
    assertTrue(old.awaitConnected(java.time.Duration.ofSeconds(20)));

    RedisBackend next;
    try (Traffic traffic = new Traffic(holder)) {
      traffic.awaitDecisions(200);
      write(file, rules(second, "redis", "50ms"));
      assertTrue(holder.reloadIfChanged(), "reloaded on the second server");
      next = backendOf(holder);
      assertTrue(next != old && next.isConnected(), "connected before the new rules were in force");
      long before = traffic.decided.get();
      traffic.awaitDecisions(before + 200);
      traffic.stop();
      assertEquals(0, traffic.unavailable.get(), traffic + ": no 503 from the switch");
    }
    awaitTrue(old::isClosed, "the old client is closed once its decisions end");
    assertEquals(5, passing(holder, "/quota/y", "198.51.100.8", 5), "decided on the new server");
    next.close();
  }

  /** Request threads deciding {@code GET /api/x} from many clients until stopped. */
  private static final class Traffic implements AutoCloseable {
    final AtomicLong decided = new AtomicLong();
    final AtomicLong unavailable = new AtomicLong();
    final AtomicLong refused = new AtomicLong();
    final AtomicBoolean running = new AtomicBoolean(true);
    final List<Thread> threads = new ArrayList<>();

    Traffic(RulesHolder holder) {
      for (int t = 0; t < TRAFFIC_THREADS; t++) {
        int id = t;
        Thread thread = new Thread(() -> {
          long i = 0;
          while (running.get()) {
            RuleVerdicts verdicts =
                new RequestDecider()
                    .decide(
                        new FakeExchange("GET", "/api/x").from("10.0." + id + "." + (i++ % 200)),
                        holder.current(), DecisionPoint.FIRST_ENTRY, null);
            if (verdicts != null && verdicts.refused()) {
              if (verdicts.refusedBy().verdict.backendUnavailable) {
                unavailable.incrementAndGet();
              } else {
                refused.incrementAndGet();
              }
            }
            decided.incrementAndGet();
          }
        }, "traffic-" + t);
        threads.add(thread);
        thread.start();
      }
    }

    void awaitDecisions(long count) {
      awaitTrue(() -> decided.get() >= count, count + " decisions");
    }

    void stop() throws InterruptedException {
      running.set(false);
      for (Thread thread : threads) {
        thread.join(TimeUnit.SECONDS.toMillis(60));
      }
    }

    @Override
    public void close() throws InterruptedException {
      stop();
    }

    @Override
    public String toString() {
      return decided.get() + " decisions, " + unavailable.get() + " x 503, " + refused.get()
          + " x 429";
    }
  }

  private static RedisBackend backendOf(RulesHolder holder) {
    return ((FailurePolicyStore) holder.current().find("api").store()).primary().backend();
  }

  private static int passing(RulesHolder holder, String path, String client, int tries) {
    int passed = 0;
    for (int i = 0; i < tries; i++) {
      RuleVerdicts verdicts =
          new RequestDecider()
              .decide(new FakeExchange("GET", path).from(client), holder.current(),
                  DecisionPoint.FIRST_ENTRY, null);
      passed += verdicts != null && verdicts.refused() ? 0 : 1;
    }
    return passed;
  }

  private static void write(Path file, String content) throws Exception {
    Files.write(file, content.getBytes(StandardCharsets.UTF_8));
  }
}
