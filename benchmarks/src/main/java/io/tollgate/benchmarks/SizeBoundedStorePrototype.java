package io.tollgate.benchmarks;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.RateLimitAlgorithm;
import io.tollgate.limiters.Verdict;
import io.tollgate.stores.LimiterStore;
import java.util.function.Function;

/**
 * A prototype of a fix for {@link io.tollgate.stores.LocalLimiterStore}, measured beside it: the
 * same store without {@code expireAfterAccess}, bounded by {@code maximumSize} alone.
 *
 * <p>Why it is safe for the algorithms whose stale state equals a fresh one (the token bucket: a
 * {@code tat} in the past is a full bucket): forgetting an idle key is only a memory measure, and
 * {@code maximumSize} already bounds the memory. Why it is faster: with any expiry, Caffeine reads
 * its ticker ({@code System.nanoTime()}) on every hit, writes the node's access time, and records
 * every read in its read buffer for the policy to replay; with size alone and a cache under half
 * full it does none of that, and above half full it records reads but reads no clock. What it
 * gives up: idle keys stay until pushed out by new ones (heap held up to max-keys, never beyond),
 * instead of leaving after {@code idleNanosUntilFresh}.
 *
 * <p>Not used by the agent. {@code LocalLimiterStore} now works this way (size bound only in
 * Caffeine) and forgets idle keys itself with a lazy sweep; this prototype, without any expiry,
 * stays to show what that sweep costs.
 */
public final class SizeBoundedStorePrototype<S> implements LimiterStore {

  private final RateLimitAlgorithm<S> algorithm;
  private final Clock clock;
  private final Cache<String, S> states;
  private final Function<String, S> newState;

  public SizeBoundedStorePrototype(RateLimitAlgorithm<S> algorithm, Clock clock, long maxKeys) {
    this.algorithm = algorithm;
    this.clock = clock;
    this.states = Caffeine.newBuilder().maximumSize(maxKeys).build();
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
  public long estimatedKeys() {
    return states.estimatedSize();
  }

  public void cleanUp() {
    states.cleanUp();
  }
}
