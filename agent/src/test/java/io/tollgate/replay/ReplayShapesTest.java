package io.tollgate.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tollgate.replay.log.LoggedRequest;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The traffic shapes of {@link TrafficShapes} against rules, with the counts worked out by hand
 * (all at one-second resolution, as access logs record time):
 *
 * <pre>
 * shape                          rule                                 matched  refused  keys refused  refusing no one
 * steady 1/s, 10 min             token-bucket 100/1m, ip                  600        0       0          60
 * 100 at 10:00:59 + 100 at 10:01 fixed-window 100/1m, ip                  200        0       0         200  both windows full, none over
 *                                sliding-log 100/1m, ip                   200      100       1         200  all 200 within one minute
 *                                token-bucket 100/1m, ip                  200       99       1         200  1 s refills 1.67 tokens: 1 more
 *                                gcra 100/1m, ip                          200       99       1         200  as the token bucket
 *                                sliding-window 100/1m, ip                200      100       1         200  100 * (1 - 0/60) + 0 = 100: full
 * scraper 300/min over 3 IPs,    token-bucket 120/1m, ip                 3000        0       0         100  100/min per address
 *   10 min                       sliding-log 120/1m, ip                  3000        0       0         100
 *                                fixed-window 120/1m, header:User-Agent  3000     1800       1         300  180 a minute over, 10 minutes
 * partner 20/s + 60 at s 10..50  token-bucket 20/1s burst 40             1500      280       1          80  s 10: 40 of 80 pass; later
 *   (1 min)                                                                                                 bursts find 20 tokens: 4 * 60
 *                                token-bucket 20/1s burst 80             1500      240       1          80  s 10 fits; 4 * 60 after
 *                                gcra 20/1s burst 40                     1500      280       1          80
 *                                fixed-window 20/1s                      1500      300       1          80  60 of each burst second
 *                                sliding-log 20/1s                       1500      300       1          80
 * </pre>
 */
class ReplayShapesTest {

  static Stream<Arguments> table() {
    Supplier<List<LoggedRequest>> steady =
        () -> TrafficShapes.traffic().steady("203.0.113.10", "/api/orders", 600).requests();
    Supplier<List<LoggedRequest>> boundary =
        () -> TrafficShapes.traffic().burstAtBoundary("203.0.113.20", "/api/orders", 100).requests();
    Supplier<List<LoggedRequest>> scraper =
        () -> TrafficShapes.traffic().scraper("/catalog", 10).requests();
    Supplier<List<LoggedRequest>> partner =
        () -> TrafficShapes.traffic().partner("192.0.2.50", "/api/sync", 60).requests();
    return Stream.of(
        Arguments.of("steady", steady, "token-bucket", "100", "1m", null, "ip", 600, 0, 0, 60),
        Arguments.of("boundary", boundary, "fixed-window", "100", "1m", null, "ip", 200, 0, 0, 200),
        Arguments.of("boundary", boundary, "sliding-log", "100", "1m", null, "ip", 200, 100, 1, 200),
        Arguments.of("boundary", boundary, "token-bucket", "100", "1m", null, "ip", 200, 99, 1, 200),
        Arguments.of("boundary", boundary, "gcra", "100", "1m", null, "ip", 200, 99, 1, 200),
        Arguments.of("boundary", boundary, "sliding-window", "100", "1m", null, "ip", 200, 100, 1, 200),
        Arguments.of("scraper", scraper, "token-bucket", "120", "1m", null, "ip", 3000, 0, 0, 100),
        Arguments.of("scraper", scraper, "sliding-log", "120", "1m", null, "ip", 3000, 0, 0, 100),
        Arguments.of("scraper", scraper, "fixed-window", "120", "1m", null, "header:User-Agent",
            3000, 1800, 1, 300),
        Arguments.of("partner", partner, "token-bucket", "20", "1s", "40", "ip", 1500, 280, 1, 80),
        Arguments.of("partner", partner, "token-bucket", "20", "1s", "80", "ip", 1500, 240, 1, 80),
        Arguments.of("partner", partner, "gcra", "20", "1s", "40", "ip", 1500, 280, 1, 80),
        Arguments.of("partner", partner, "fixed-window", "20", "1s", null, "ip", 1500, 300, 1, 80),
        Arguments.of("partner", partner, "sliding-log", "20", "1s", null, "ip", 1500, 300, 1, 80));
  }

  @ParameterizedTest(name = "{0} against {2} {3}/{4} burst {5} key {6}")
  @MethodSource("table")
  void replaysTheShapeWithTheExpectedCounts(
      String shape,
      Supplier<List<LoggedRequest>> traffic,
      String algorithm,
      String limit,
      String period,
      String burst,
      String key,
      long matched,
      long refused,
      long keysRefused,
      long refusingNoOne)
      throws Exception {
    ReplayReport report =
        Replays.replay(
            Replays.rules(
                "rules:",
                "  - name: r",
                "    match: {path: /**}",
                "    key: " + key,
                "    algorithm: " + algorithm,
                "    limit: " + limit,
                "    period: " + period,
                burst == null ? "" : "    burst: " + burst),
            traffic.get());
    RuleReport rule = Replays.rule(report, "r");
    assertEquals(matched, rule.matched, "matched");
    assertEquals(refused, rule.refused, "would refuse");
    assertEquals(keysRefused, rule.keysRefused, "keys refused");
    assertEquals(refusingNoOne, rule.suggestions.get(0).refusingNoOne, "limit refusing no one");
    assertEquals(refused, report.refusedRequests, "requests refused");
  }
}
