package io.tollgate.stores.redis;

import static io.tollgate.testing.Conditions.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
import io.tollgate.testing.redis.FaultyProxy;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A decision whose connection drops is spent in Redis at most once: Lettuce (autoReconnect with
 * {@code REJECT_COMMANDS}) fails the calls that were on the wire with "Connection disconnected"
 * (the first of them with the reset itself) and does not send them again after the reconnect, and the backend sends again only a call that
 * was never sent. So a decision reported lost (and decided by the local share) is not also spent
 * in Redis a second time later, and one that found no connection was never spent there (decided
 * by the local share while the reconnect is under way, {@link RedisFailure#RECONNECTING}, or by
 * {@code on-failure} once a reconnect failed).
 *
 * <p>What ran in Redis is read from the key's own state afterwards: a limit of 1000 over ten
 * days (no refill to speak of), so each run of the decision takes exactly one from what a last
 * decision, made on the reconnected connection after anything Lettuce could replay, sees left.
 * The times are far apart, so a busy machine only lengthens the waits.
 */
@ExtendWith(RedisServerExtension.class)
class DroppedCallNotReplayedTest {

  private static final long LIMIT = 1000;

  /** One decision of each at once: two calls on the wire at the drop, or two while it lasts. */
  private static final List<String> KEYS = List.of("first", "second");

  /** When the decision is made, against the drop. */
  enum When {
    /** Sent and run by Redis; its reply held by the proxy when the connection is reset. */
    IN_FLIGHT_AT_THE_DROP,
    /**
     * Made while the reconnect is held longer than its max-wait: never sent, and past the wait
     * the local share's (the reconnect has not failed).
     */
    WHILE_DISCONNECTED,
    /** Made while the reconnect is held less than its max-wait: waits, sent after. */
    SENT_AFTER_THE_RECONNECT,
  }

  @ParameterizedTest(name = "batched {0}: decisions {1}: run {2} time(s) in redis, decided by {3}")
  @CsvSource({
      // batched, when,                    runs in redis, decided by (one per decision)
      "false, IN_FLIGHT_AT_THE_DROP,    2, LOST LOST",
      "true,  IN_FLIGHT_AT_THE_DROP,    2, LOST LOST",
      "false, WHILE_DISCONNECTED,       0, RECONNECTING RECONNECTING",
      "true,  WHILE_DISCONNECTED,       0, RECONNECTING RECONNECTING",
      "false, SENT_AFTER_THE_RECONNECT, 2, REDIS REDIS",
      "true,  SENT_AFTER_THE_RECONNECT, 2, REDIS REDIS",
  })
  void aDroppedDecisionIsSpentInRedisAtMostOnce(boolean batched, When when, int runs,
      String decidedBy, RedisServer server) throws Exception {
    String rule = RedisTestSupport.uniqueRule("replay");
    long maxWaitMillis = when == When.WHILE_DISCONNECTED ? 300 : 10_000;
    try (FaultyProxy proxy = new FaultyProxy(server.port());
        RedisBackend backend = RedisTestSupport.connectThrough(
            proxy, Duration.ofMillis(maxWaitMillis), 4, batched)) {
      RedisGcraStore store = new RedisGcraStore(backend, rule,
          new TokenBucket(LimitSpec.of(LIMIT, TimeUnit.DAYS.toNanos(10))));
      store.decide("warm-up", 1, new Verdict()); // the script loaded: one call per decision

      List<Future<String>> decisions = new ArrayList<>();
      ExecutorService threads = Executors.newFixedThreadPool(KEYS.size());
      try {
        if (when == When.IN_FLIGHT_AT_THE_DROP) {
          // Two calls on the wire: Lettuce fails the first of them with the reset itself and
          // drains the others, which only REJECT_COMMANDS keeps from being sent again.
          proxy.delayReplies(TimeUnit.MINUTES.toMillis(1));
          for (String key : KEYS) {
            decisions.add(threads.submit(() -> decide(store, key)));
            awaitTrue(() -> keyExists(server, rule, key), "redis ran the decision of " + key);
          }
          proxy.dropConnections();
          proxy.delayReplies(0);
        } else {
          proxy.holdNewConnections(when == When.WHILE_DISCONNECTED ? 3_000 : 1_000);
          proxy.dropConnections();
          awaitTrue(() -> !backend.isConnected(), "the backend sees the drop");
          for (String key : KEYS) {
            decisions.add(threads.submit(() -> decide(store, key)));
          }
        }
        StringBuilder decided = new StringBuilder();
        for (Future<String> decision : decisions) {
          decided.append(decided.length() == 0 ? "" : " ")
              .append(decision.get(2, TimeUnit.MINUTES));
        }
        assertEquals(decidedBy, decided.toString(), "decided by");
      } finally {
        threads.shutdownNow();
      }

      awaitTrue(backend::isConnected, "reconnected");
      proxy.holdNewConnections(0);
      // On the reconnected connection, after whatever Lettuce would send again on it.
      long ran = 0;
      for (String key : KEYS) {
        Verdict last = new Verdict();
        store.decide(key, 1, last);
        ran += LIMIT - 1 - last.remaining;
      }
      assertEquals(runs, ran, "runs of the dropped decisions in redis");
    }
  }

  /** One decision of {@code key}: REDIS, or the kind of failure that left it to the caller. */
  private static String decide(RedisGcraStore store, String key) {
    try {
      store.decide(key, 1, new Verdict());
      return "REDIS";
    } catch (BackendUnavailableException e) {
      return e.kind().name();
    }
  }

  /** Whether the rule's state for {@code key} is in Redis: a decision of it ran there. */
  private static boolean keyExists(RedisServer server, String rule, String key) {
    String tag = RedisKeys.clientTag(rule, key);
    Object keys = server.call("KEYS", "*");
    if (keys instanceof List) {
      for (Object stored : (List<?>) keys) {
        if (String.valueOf(stored).startsWith(tag)) {
          return true;
        }
      }
    }
    return false;
  }
}
