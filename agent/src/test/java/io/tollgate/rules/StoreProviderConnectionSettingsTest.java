package io.tollgate.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.config.Durations;
import io.tollgate.config.RedisSettings;
import io.tollgate.config.RulesConfig;
import io.tollgate.config.RulesFileParser;
import io.tollgate.stores.redis.RedisConnectionSettings;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What the rules file's {@code redis:} section says is what the Redis store is built with: the
 * timeouts reach the {@link RedisConnectionSettings} that {@link StoreProvider} connects with, and a
 * reload that changes them connects with the new ones.
 */
class StoreProviderConnectionSettingsTest {

  private static RedisConnectionSettings settingsOf(String redisLines) throws Exception {
    RulesConfig config =
        RulesFileParser.parse(
            "backend: redis\nredis:\n" + redisLines + "rules: []\n", "rules.yaml");
    return StoreProvider.connectionSettings(config.redis());
  }

  @ParameterizedTest(name = "timeout {0}, max-wait {1}: the store waits {2}, then up to {3}")
  @CsvSource(
      delimiter = '|',
      value = {
        "      |       | 50ms  | 1s",
        "      | 3s    | 50ms  | 3s",
        "100ms | 100ms | 100ms | 100ms",
        "20ms  | 30s   | 20ms  | 30s",
        "2s    |       | 2s    | 2s", // max-wait defaults to 1 s, never below the timeout
      })
  void theTimeoutsReachTheStore(String timeout, String maxWait, String waits, String bound)
      throws Exception {
    RedisConnectionSettings s =
        settingsOf(
            "  uri: redis://cache.invalid:6379\n"
                + (timeout == null ? "" : "  timeout: " + timeout + "\n")
                + (maxWait == null ? "" : "  max-wait: " + maxWait + "\n"));
    assertEquals(Duration.ofNanos(Durations.parseNanos(waits)), s.timeout());
    assertEquals(Duration.ofNanos(Durations.parseNanos(bound)), s.maxWait());
    assertTrue(s.toString().contains("max-wait " + s.maxWait().toMillis() + "ms"), s::toString);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "one server | uri: redis://cache.invalid:6379",
        "a cluster  | cluster: [redis://a.invalid:6379, redis://b.invalid:6379]",
      })
  void theMaxWaitReachesEveryKindOfServer(String what, String server) throws Exception {
    RedisConnectionSettings s = settingsOf("  " + server + "\n  max-wait: 4s\n");
    assertEquals(Duration.ofSeconds(4), s.maxWait(), what);
  }

  /**
   * A reload keeps the connection unless the server or TLS changed; a change of timings (or of the
   * bulkhead) is applied to it in place ({@code retime}), and never starts the counts afresh.
   */
  @ParameterizedTest(name = "{0} -> {1}: keeps the connection {2}, retimes it {3}")
  @CsvSource(
      delimiter = '|',
      value = {
        "max-wait: 1s                | max-wait: 1s                | true  | false",
        "timeout: 50ms               | max-wait: 1s                | true  | false", // defaults
        "max-wait: 1s                | max-wait: 2s                | true  | true",
        "max-wait: 2s                | timeout: 50ms               | true  | true", // back to 1 s
        "timeout: 50ms               | timeout: 80ms               | true  | true",
        "max-waiting-threads: 4      | max-waiting-threads: 16     | true  | true",
        "refusal-cache: false        | refusal-cache: true         | true  | false",
        "lease-tokens: 1             | lease-tokens: 10            | true  | false",
      })
  void aReloadKeepsTheConnectionUnlessTheServerChanges(
      String before, String after, boolean keeps, boolean retimes) throws Exception {
    RedisSettings a = redisOf(before);
    RedisSettings b = redisOf(after);
    assertEquals(keeps, b.sameConnectionAs(a));
    assertEquals(retimes, keeps && !StoreProvider.sameServer(a, b));
  }

  @ParameterizedTest(name = "{0}: the same counts {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "timeout: 80ms               | true",
        "max-wait: 3s                | true",
        "max-waiting-threads: 9      | true",
        "refusal-cache: true         | false",
        "lease-tokens: 10            | false",
      })
  void onlyWhatDecidesWhereCountsLiveChangesTheStoresFingerprint(String after, boolean same)
      throws Exception {
    assertEquals(same,
        redisOf("timeout: 50ms").storeFingerprint().equals(redisOf(after).storeFingerprint()));
  }

  @org.junit.jupiter.api.Test
  void anotherServerIsAnotherConnection() throws Exception {
    RedisSettings other = RulesFileParser.parse(
            "backend: redis\nredis:\n  uri: redis://other.invalid:6379\nrules: []\n", "rules.yaml")
        .redis();
    assertEquals(false, other.sameConnectionAs(redisOf("timeout: 50ms")));
  }

  @org.junit.jupiter.api.Test
  void maxWaitingThreadsReachesTheStoreAndDefaultsToTwiceTheCores() throws Exception {
    assertEquals(7, settingsOf("  uri: redis://cache.invalid:6379\n  max-waiting-threads: 7\n")
        .maxWaitingThreads());
    assertEquals(Math.max(4, 2 * Runtime.getRuntime().availableProcessors()),
        settingsOf("  uri: redis://cache.invalid:6379\n").maxWaitingThreads());
  }

  private static RedisSettings redisOf(String line) throws Exception {
    return RulesFileParser.parse(
            "backend: redis\nredis:\n  uri: redis://cache.invalid:6379\n  " + line + "\nrules: []\n",
            "rules.yaml")
        .redis();
  }
}
