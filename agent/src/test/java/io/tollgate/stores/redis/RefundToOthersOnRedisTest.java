package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.ManualClock;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A token an instance gives back for the other instances ({@code gcra.lua}'s {@code refund}, what
 * {@link LateReplyLedger} sends when more than one instance shares the limit) is theirs: the
 * giver's own next call, which reaches Redis right behind the refund on its connection, does not
 * take it; another instance's call that the bucket refuses does, once. A refund for any caller
 * ({@code adjust}, one instance alone) goes back in the bucket, the giver's next call takes it.
 * A bucket found full has had its gifts back from time already: they are dropped, so the bucket
 * never holds more than its burst. Two backends on one real Redis are the two instances.
 */
@ExtendWith(RedisServerExtension.class)
class RefundToOthersOnRedisTest {

  private static final long HOUR = TimeUnit.HOURS.toNanos(1);
  private static final long S = TimeUnit.SECONDS.toNanos(1);

  private static RedisBackend giverBackend;
  private static RedisBackend otherBackend;

  @BeforeAll
  static void connect(RedisServer server) {
    giverBackend = RedisTestSupport.connect(server);
    otherBackend = RedisTestSupport.connect(server);
  }

  @AfterAll
  static void close() {
    giverBackend.close();
    otherBackend.close();
  }

  /**
   * The giver takes the bucket's last of 3 tokens, gives {@code given} back ({@code othersOnly}
   * or to anyone); {@code later} seconds pass; then the giver decides once and the other
   * instance decides 5 times.
   */
  @ParameterizedTest(name = "{0} given back, for the others only {1}, {2} s later: giver admitted"
      + " {3}, the other {4} of 5")
  @CsvSource({
    "1, true,     0, false, 1",
    "2, true,     0, false, 2",
    "1, true,     1, false, 1",
    "1, false,    0, true,  0",
    "2, false,    0, true,  1",
    "0, true,     0, false, 0",
    // no gift for 2 s: nobody else came for them, the giver may take its own back
    "1, true,     2, true,  0",
    "2, true,     3, true,  1",
    // the bucket full again: 3 tokens, the gifts dropped (the giver takes one of them)
    "2, true,  3600, true,  2",
  })
  void aTokenGivenBackForTheOthersIsNotTakenByTheGiver(int given, boolean othersOnly, int later,
      boolean giverAdmitted, int otherAdmitted) {
    ManualClock clock = new ManualClock(TimeUnit.DAYS.toNanos(20_000));
    String rule = RedisTestSupport.uniqueRule("gift");
    TokenBucket bucket = new TokenBucket(LimitSpec.of(3, HOUR));
    RedisGcraStore giver = new RedisGcraStore(giverBackend, rule, bucket, clock);
    RedisGcraStore other = new RedisGcraStore(otherBackend, rule, bucket, clock);
    for (int i = 0; i < 3; i++) {
      assertTrue(decide(giver), "the bucket's token " + (i + 1));
    }
    for (int i = 0; i < given; i++) {
      assertTrue(giver.refundInBackground("k", 1, othersOnly), "sent");
    }
    clock.advanceNanos(later * S);
    assertEquals(giverAdmitted, decide(giver)); // on the refund's connection, behind it
    int admitted = 0;
    for (int i = 0; i < 5; i++) {
      admitted += decide(other) ? 1 : 0;
    }
    assertEquals(otherAdmitted, admitted);
  }

  private static boolean decide(RedisGcraStore store) {
    Verdict verdict = new Verdict();
    store.decide("k", 1, verdict);
    return verdict.allowed;
  }
}
