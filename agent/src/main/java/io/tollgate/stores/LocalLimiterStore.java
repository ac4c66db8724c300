package io.tollgate.stores;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.RateLimitAlgorithm;
import io.tollgate.limiters.Verdict;
import java.util.function.Function;

/**
 * One rule's keys in this process: a bounded Caffeine cache of per-key state, each decided under
 * that key's own monitor.
 *
 * <p>Bounded twice: at most {@code maxKeys} keys, and each key forgotten once it has been idle for
 * as long as its state takes to become fresh again, when forgetting it loses nothing.
 *
 * <p>At the bound, Caffeine's W-TinyLFU policy decides who goes: a new key is admitted only if it
 * has been seen more often (by a frequency sketch that outlives eviction) than the key it would
 * displace. A key that is being limited is, by definition, being hit often, so a flood of distinct
 * one-off keys (spoofed API keys, a botnet's addresses) displaces each other, not it: eviction
 * cannot cheaply hand a limited key a fresh budget. A key whose state holds resources (the
 * concurrency algorithm's permits, {@link RateLimitAlgorithm#holdsResources}) weighs nothing and
 * never expires while it holds them, so it is neither evicted nor forgotten before its requests
 * end.
 *
 * <p>Cache maintenance runs on the calling thread (no pool of the application's is borrowed). No
 * global lock: two requests contend only when they share a key, and then only for the few
 * arithmetic operations of one decision. A hit allocates nothing.
 */
public final class LocalLimiterStore<S> implements LimiterStore {

  /** How long a key that holds resources is kept without any access: in effect, forever. */
  static final long HOLDING_NANOS = Long.MAX_VALUE / 2;

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
    final long idle = algorithm.idleNanosUntilFresh();
    this.states =
        Caffeine.newBuilder()
            .maximumWeight(maxKeys)
            .weigher((String key, S state) -> algorithm.holdsResources(state) ? 0 : 1)
            .expireAfter(
                new Expiry<String, S>() {
                  @Override
                  public long expireAfterCreate(String key, S state, long currentTime) {
                    return algorithm.holdsResources(state) ? HOLDING_NANOS : idle;
                  }

                  @Override
                  public long expireAfterUpdate(
                      String key, S state, long currentTime, long currentDuration) {
                    return algorithm.holdsResources(state) ? HOLDING_NANOS : idle;
                  }

                  @Override
                  public long expireAfterRead(
                      String key, S state, long currentTime, long currentDuration) {
                    return algorithm.holdsResources(state) ? HOLDING_NANOS : idle;
                  }
                })
            .executor(Runnable::run)
            .ticker(expiryTicker)
            .build();
    this.newState = ignored -> algorithm.newState();
  }

  @Override
  public void decide(String key, long cost, Verdict verdict) {
    S state = states.get(key, newState);
    boolean held;
    boolean holds;
    synchronized (state) {
      held = algorithm.holdsResources(state);
      algorithm.decide(state, clock.nowNanos(), cost, verdict);
      holds = algorithm.holdsResources(state);
    }
    if (held != holds) {
      reweigh(key, state);
    }
  }

  @Override
  public void release(String key, long cost) {
    S state = states.getIfPresent(key);
    if (state != null) {
      boolean held;
      boolean holds;
      synchronized (state) {
        held = algorithm.holdsResources(state);
        algorithm.release(state, clock.nowNanos(), cost);
        holds = algorithm.holdsResources(state);
      }
      if (held != holds) {
        reweigh(key, state);
      }
    }
  }

  @Override
  public void adjust(String key, long delta) {
    if (delta == 0) {
      return;
    }
    // A refund on a forgotten key has nothing to give back; a charge on one starts it afresh.
    S state = delta > 0 ? states.get(key, newState) : states.getIfPresent(key);
    if (state != null) {
      synchronized (state) {
        algorithm.adjust(state, clock.nowNanos(), delta);
      }
    }
  }

  /** Has Caffeine weigh the key and time its expiry again, now that it holds (or no longer holds). */
  private void reweigh(String key, S state) {
    states.asMap().replace(key, state, state);
  }

  @Override
  public long estimatedKeys() {
    return states.estimatedSize();
  }

  /** Whether this store has state for the key now; for tests. */
  public boolean tracks(String key) {
    return states.getIfPresent(key) != null;
  }

  /** Runs pending expiry and eviction now; for tests and memory measurements. */
  public void cleanUp() {
    states.cleanUp();
  }
}
