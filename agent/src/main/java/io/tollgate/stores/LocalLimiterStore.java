package io.tollgate.stores;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.RateLimitAlgorithm;
import io.tollgate.limiters.Verdict;
import java.time.Duration;
import java.util.function.Function;

/**
 * One rule's keys in this process: a bounded Caffeine cache of per-key state, each decided under
 * that key's own monitor.
 *
 * <p>Bounded twice: at most {@code maxKeys} keys (Caffeine evicts the least valuable by frequency
 * and recency, so a key under attack, being hit constantly, is the last to go), and each key
 * forgotten once it has been idle for as long as its state takes to become fresh again, when
 * forgetting it loses nothing.
 *
 * <p>No global lock: two requests contend only when they share a key, and then only for the few
 * arithmetic operations of one decision. A hit allocates nothing.
 */
public final class LocalLimiterStore<S> implements LimiterStore {

  private final RateLimitAlgorithm<S> algorithm;
  private final Clock clock;
  private final Cache<String, S> states;
  private final Function<String, S> newState;

  public LocalLimiterStore(RateLimitAlgorithm<S> algorithm, Clock clock, long maxKeys) {
    this(algorithm, clock, maxKeys, Ticker.systemTicker());
  }

  /**
   * With the time source of key expiry given: for tests, a ticker that moves with the test's
   * {@link io.tollgate.limiters.ManualClock}.
   */
  public LocalLimiterStore(
      RateLimitAlgorithm<S> algorithm, Clock clock, long maxKeys, Ticker expiryTicker) {
    this.algorithm = algorithm;
    this.clock = clock;
    this.states =
        Caffeine.newBuilder()
            .maximumSize(maxKeys)
            .expireAfterAccess(Duration.ofNanos(algorithm.idleNanosUntilFresh()))
            .ticker(expiryTicker)
            .build();
    this.newState = ignored -> algorithm.newState();
  }

  @Override
  public void decide(String key, long cost, Verdict verdict) {
    S state = states.get(key, newState);
    synchronized (state) {
      algorithm.decide(state, clock.nowNanos(), cost, verdict);
    }
  }

  @Override
  public void release(String key, long cost) {
    S state = states.getIfPresent(key);
    if (state != null) {
      synchronized (state) {
        algorithm.release(state, clock.nowNanos(), cost);
      }
    }
  }

  @Override
  public long estimatedKeys() {
    return states.estimatedSize();
  }

  /** Runs pending expiry and eviction now; for tests and memory measurements. */
  public void cleanUp() {
    states.cleanUp();
  }
}
