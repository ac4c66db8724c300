package io.tollgate.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tollgate.diagnostics.EarlyRetryLog;
import io.tollgate.diagnostics.metrics.EarlyRetryKey;
import io.tollgate.diagnostics.metrics.RuleMetrics;
import io.tollgate.diagnostics.metrics.TollgateMetrics;
import io.tollgate.http.RefusalResponse;
import io.tollgate.limiters.ManualClock;
import io.tollgate.rules.RuleSetFactory;
import io.tollgate.testing.StandardErrorCapture;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Retry storms as the engine counts them: the rules decide on a manual clock, each refusal goes
 * to {@link EarlyRetries} with the {@code Retry-After} the client is given, and the rule's metrics
 * count the requests refused before the wait their key was last told had elapsed.
 */
class EarlyRetriesTest {

  /** Rule names are unique in this JVM: the metrics are counted by name, since start. */
  private static final AtomicInteger RULES = new AtomicInteger();

  @TempDir Path dir;
  @RegisterExtension final StandardErrorCapture stderr = new StandardErrorCapture();

  private final ManualClock clock = ManualClock.atEpochMillis(1_800_000_000_000L);
  private final EarlyRetries earlyRetries = new EarlyRetries(
      new EarlyRetryDetector(clock::nowNanos), new EarlyRetryLog(clock::nowNanos));
  private final RequestDecider decider = new RequestDecider();
  private RulesHolder holder;
  private String rule;

  private void rules(String... settings) throws Exception {
    rule = "storm-" + RULES.incrementAndGet();
    List<String> lines = new ArrayList<>(List.of(
        "rules:", "  - name: " + rule, "    match:", "      path: /api/**"));
    for (String s : settings) {
      lines.add("    " + s.trim());
    }
    Path file = dir.resolve("rules.yaml");
    Files.write(file, (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    holder = new RulesHolder(new RuleSetFactory(clock));
    holder.useFile(file.toString());
    assertEquals(1, holder.current().size());
  }

  /** One request of {@code client}; true when refused. */
  private boolean request(String client) {
    RuleVerdicts verdicts = decider.decide(
        FakeExchange.get("/api/orders").from(client), holder.current(),
        DecisionPoint.FIRST_ENTRY, null);
    if (verdicts == null || !verdicts.refused()) {
      return false;
    }
    verdicts.releaseHeld();
    earlyRetries.check(verdicts,
        RefusalResponse.retryAfterSeconds(verdicts.refusedBy().verdict.retryAfterNanos));
    return true;
  }

  /** Requests of one client at these times (milliseconds from the start), in order. */
  private String requestsAt(String client, String times) {
    long start = clock.nowNanos();
    StringBuilder outcomes = new StringBuilder();
    for (String t : times.trim().split("\\s+")) {
      clock.setNanos(start + Long.parseLong(t) * 1_000_000L);
      outcomes.append(request(client) ? 'R' : 'A');
    }
    return outcomes.toString();
  }

  /**
   * The metrics of the rule (or of its limit that refused, {@code rule/1m}): made by its first
   * early retry here (the decider alone counts nothing).
   */
  private RuleMetrics metrics() {
    return TollgateMetrics.all().stream()
        .filter(m -> m.getRule().equals(rule) || m.getRule().startsWith(rule + "/"))
        .findFirst().orElse(null);
  }

  @ParameterizedTest(name = "{0}: requests at {1} ms")
  @CsvSource(delimiter = '|', value = {
      // settings (';' between lines)               | at (ms)                   | outcomes | early | told | after (s)
      "algorithm: fixed-window; limit: 1; period: 1m | 0 100 300                | ARR      | 1     | 60   | 0.2",
      "algorithm: fixed-window; limit: 1; period: 1m | 0 100 300 500 700        | ARRRR    | 3     | 60   | 0.2",
      "algorithm: fixed-window; limit: 1; period: 1m | 0 100 60100              | ARA      | 0     | -    | -",
      "algorithm: fixed-window; limit: 1; period: 1m | 0 100 59000              | ARR      | 1     | 60   | 58.9",
      "algorithm: token-bucket; limit: 1; period: 10s | 0 100 5100 10200        | ARRA     | 1     | 10   | 5.0",
      "algorithm: sliding-window; limit: 2; period: 10s | 0 1 2 500 25000      | AARRA    | 1     | 15   | 0.498",
      "algorithm: gcra; limit: 1; period: 2s        | 0 100 1000 3000           | ARRA     | 1     | 2    | 0.9",
      "limit: 1; period: 1m; mode: shadow           | 0 100 300                 | AAA      | 0     | -    | -",
      "algorithm: fixed-window; limits: [{limit: 1, period: 1s}, {limit: 2, period: 1m}] | 0 100 1100 1200 | ARAR | 0 | - | -",
      "algorithm: fixed-window; limits: [{limit: 1, period: 1s}, {limit: 2, period: 1m}] | 0 1100 1200 2500 | AARR | 1 | 59 | 1.3",
      "limits: [{limit: 1, period: 1s}, {limit: 2, period: 1m}]                         | 0 1100 1200 2500 | AARR | 1 | 29 | 1.3",
  })
  void requestsRefusedBeforeTheirWaitAreEarlyRetries(String settings, String at,
      String outcomes, long early, String told, String after) throws Exception {
    rules(settings.split(";"));

    assertEquals(outcomes, requestsAt("203.0.113.7", at));

    RuleMetrics metrics = metrics();
    if (early == 0) {
      assertEquals(null, metrics, "no early retry made the rule's metrics");
      return;
    }
    assertEquals(early, metrics.earlyRetries(), "early retries");
    assertEquals(settings.contains("limits:") ? rule + "/1m" : rule, metrics.getRule(),
        "counted on the limit that refused, as Tollgate-Rule names it");
    assertEquals(early, metrics.getEarlyRetries(), "over JMX");
    List<EarlyRetryKey> top = metrics.topEarlyRetryKeys(5);
    assertEquals(1, top.size());
    EarlyRetryKey key = top.get(0);
    assertEquals("203.0.113.7", key.key());
    assertEquals(early, key.count());
    assertEquals(Long.parseLong(told), key.toldSeconds(), "told");
    assertEquals(Double.parseDouble(after), key.cameBackAfterSeconds(), 1e-9, "came back after");
  }

  @Test
  void theTopKeysAreTheClientsThatRetryEarlyMostOften() throws Exception {
    rules("limit: 1", "period: 1m");
    String[] clients = {"198.51.100.1", "198.51.100.2", "198.51.100.3"};
    for (String client : clients) {
      request(client); // allowed
      request(client); // refused, told 60 s
    }
    for (int round = 0; round < 5; round++) {
      clock.advanceMillis(100);
      request(clients[0]); // every round
      if (round < 3) {
        request(clients[1]);
      }
      if (round == 0) {
        request(clients[2]);
      }
    }
    assertEquals(List.of("198.51.100.1=5", "198.51.100.2=3", "198.51.100.3=1"), top(10));
    assertEquals(List.of("198.51.100.1=5"), top(1));
    assertEquals("198.51.100.1=5 (told 60 s, came back after 0.1 s)",
        metrics().getTopEarlyRetryKeys()[0]);
  }

  private List<String> top(int n) {
    return metrics().topEarlyRetryKeys(n).stream().map(k -> k.key() + "=" + k.count())
        .collect(Collectors.toList());
  }

  @Test
  void theLogNamesTheKeyAndHowEarlyOnceAMinute() throws Exception {
    rules("limit: 1", "period: 1h");
    request("203.0.113.7");
    request("203.0.113.7"); // refused, told 3600 s
    for (int i = 0; i < 240; i++) {
      clock.advanceMillis(200);
      request("203.0.113.7");
    }
    assertEquals(List.of("[tollgate] rule '" + rule + "': key '203.0.113.7' retried 0.2 s after"
        + " being told 3600 s (a client retrying before its Retry-After: see"
        + " tollgate_early_retries_total)"), lines());

    for (int i = 0; i < 61; i++) {
      clock.advanceMillis(200); // a minute after the first line, 300 retries later
      request("203.0.113.7");
    }
    assertEquals("[tollgate] rule '" + rule + "': key '203.0.113.7' retried 0.2 s after being"
        + " told 3540 s, 300 times in the last minute", lines().get(1));
    assertEquals(2, lines().size());
    assertEquals(300 + 1, metrics().earlyRetries(), "the metric counts every one");
  }

  @Test
  void theLogWritesAtMostAFewLinesAMinuteHoweverManyKeysStorm() throws Exception {
    rules("limit: 1", "period: 1h");
    for (int i = 0; i < 100; i++) {
      String client = "10.0.0." + i;
      request(client);
      request(client);
      request(client);
    }
    assertEquals(100, metrics().earlyRetries());
    assertEquals(20, lines().size());
  }

  @Test
  void aPerClientRefusalIsTheClientsEarlyRetryNotTheSharedKeys() throws Exception {
    rules("key: global", "algorithm: concurrency", "limit: 4", "period: 1m");
    assertEquals("AAR", requestsAt("198.51.100.1", "0 0 0"), "one client holds half the pool");
    assertEquals("A", requestsAt("198.51.100.2", "0"), "another client takes the rest");
    assertEquals("RR", requestsAt("198.51.100.1", "100 200"));

    List<EarlyRetryKey> top = metrics().topEarlyRetryKeys(5);
    assertEquals(1, top.size());
    assertEquals("* (client 198.51.100.1)", top.get(0).key());
    assertEquals(2, top.get(0).count());
    assertEquals(List.of("[tollgate] rule '" + rule + "': key '*' (client '198.51.100.1') retried"
        + " 0.1 s after being told 1 s (a client retrying before its Retry-After: see"
        + " tollgate_early_retries_total)"), lines());
  }

  /**
   * A flood of many clients each retrying early: the log names at most 20 of them a minute,
   * however many retry (each one's first line waits for a minute with room), and the metric
   * counts every early retry.
   */
  @Test
  void aFloodOfManyKeysIsLoggedTwentyLinesAMinuteAndCountedWhole() throws Exception {
    rules("limit: 1", "period: 1h");
    for (int round = 0; round < 3; round++) {
      for (int client = 1; client <= 100; client++) {
        request("198.51.100." + client); // allowed, then refused, then early retries
      }
      clock.advanceMillis(100);
    }
    assertEquals(20, lines().size(), "the first minute's lines");
    assertEquals(100, metrics().earlyRetries(), "the second refusal of each client");

    clock.advanceMillis(60_000);
    for (int client = 1; client <= 100; client++) {
      request("198.51.100." + client);
    }
    assertEquals(40, lines().size(), "the next minute's");
    assertEquals(200, metrics().earlyRetries());
  }

  private List<String> lines() {
    return stderr.agentLines().stream().filter(l -> l.contains("retried"))
        .collect(Collectors.toList());
  }
}
