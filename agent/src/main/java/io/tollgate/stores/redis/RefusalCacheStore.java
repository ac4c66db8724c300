package io.tollgate.stores.redis;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.Verdict;
import io.tollgate.stores.LimiterStore;
import java.util.concurrent.atomic.LongAdder;

/**
 * A shared store's refusals remembered in this process ({@code redis: refusal-cache: true}), so
 * that a flood on one limited key costs Redis one round trip per refusal period instead of one per
 * request.
 *
 * <p>When Redis refuses a request of cost {@code c} for a key with a Retry-After of {@code r}, no
 * request of that key costing {@code c} can be allowed before {@code r} has passed: tokens come
 * back only with time, and other instances' requests only take more. So until then this store
 * refuses such requests itself, with the Retry-After and reset left of Redis's answer and the
 * remaining Redis reported. Requests of another cost (a dearer one would get a later Retry-After),
 * and every request once {@code r} has passed, go to Redis as before, and its answer replaces what
 * is remembered.
 *
 * <p>The deadline is counted from just before the call was sent: Redis's clock read the request
 * later than that, so the remembered refusal ends no later than the real one and a key is never
 * refused here when Redis would have allowed it, except after a refund ({@link #adjust} with a
 * negative delta): a refund made through this instance forgets the key at once, one made by another
 * instance is seen when the remembered refusal ends (at most its Retry-After later). With one
 * instance the answers are Redis's own; with several, the Retry-After given here can be shorter
 * than Redis's (other instances took tokens meanwhile), and the request after it asks Redis.
 *
 * <p>Only for algorithms whose Retry-After is the earliest time the same request could pass (the
 * token bucket); never for one whose permits come back on release (concurrency).
 *
 * <p>Memory is bounded: at most {@code maxKeys} refused keys (Caffeine, W-TinyLFU, so a flood of
 * one-off keys cannot push out a key that is refused often), each forgotten when its refusal ends.
 * Forgetting early costs one round trip, never a wrong decision. The check is one cache lookup; a
 * hit allocates nothing.
 */
public final class RefusalCacheStore implements LimiterStore {

  private final LimiterStore shared;
  private final Clock clock;
  private final Cache<String, Refusal> refusals;
  private final LongAdder answeredLocally = new LongAdder();
  private final LongAdder passedOn = new LongAdder();

  /** Redis's refusal of a request of {@code cost}, in this process's clock. */
  static final class Refusal {
    final long cost;
    final long remaining;
    final long untilNanos;
    final long resetAtNanos;

    Refusal(long cost, long remaining, long untilNanos, long resetAtNanos) {
      this.cost = cost;
      this.remaining = remaining;
      this.untilNanos = untilNanos;
      this.resetAtNanos = resetAtNanos;
    }
  }

  /**
   * @param shared the store whose refusals are remembered (a token bucket's {@link RedisGcraStore}); its
   *     {@link BackendUnavailableException}s pass through
   * @param clock this process's clock, which also times the entries' expiry
   * @param maxKeys at most this many refused keys are remembered
   */
  public RefusalCacheStore(LimiterStore shared, Clock clock, long maxKeys) {
    this.shared = shared;
    this.clock = clock;
    this.refusals =
        Caffeine.newBuilder()
            .maximumSize(Math.max(1, maxKeys))
            .expireAfter(
                new Expiry<String, Refusal>() {
                  @Override
                  public long expireAfterCreate(String key, Refusal refusal, long now) {
                    return Math.max(0, refusal.untilNanos - now);
                  }

                  @Override
                  public long expireAfterUpdate(
                      String key, Refusal refusal, long now, long currentDuration) {
                    return Math.max(0, refusal.untilNanos - now);
                  }

                  @Override
                  public long expireAfterRead(
                      String key, Refusal refusal, long now, long currentDuration) {
                    return currentDuration;
                  }
                })
            .executor(Runnable::run)
            .ticker(clock::nowNanos)
            .build();
  }

  @Override
  public void decide(String key, long cost, Verdict verdict) {
    long now = clock.nowNanos();
    Refusal known = refusals.getIfPresent(key);
    if (known != null && cost == known.cost && now < known.untilNanos) {
      answeredLocally.increment();
      verdict.refuse(known.remaining, known.untilNanos - now, Math.max(0, known.resetAtNanos - now));
      return;
    }
    passedOn.increment();
    shared.decide(key, cost, verdict);
    if (!verdict.allowed && !verdict.backendUnavailable && cost > 0) {
      refusals.put(
          key,
          new Refusal(
              cost, verdict.remaining, now + verdict.retryAfterNanos, now + verdict.resetNanos));
    } else if (known != null && verdict.allowed) {
      // Tokens were taken (so a dearer request waits longer than remembered), or given back
      // (so it may pass sooner): Redis's next refusal will say.
      refusals.invalidate(key);
    }
  }

  @Override
  public void release(String key, long cost) {
    shared.release(key, cost);
  }

  @Override
  public void adjust(String key, long delta) {
    shared.adjust(key, delta);
    if (delta < 0) {
      refusals.invalidate(key); // a refund may let the key pass sooner
    }
  }

  @Override
  public long estimatedKeys() {
    return shared.estimatedKeys();
  }

  /** Requests refused here from a remembered refusal, without a round trip. */
  public long answeredLocally() {
    return answeredLocally.sum();
  }

  /** Requests passed on to the shared store. */
  public long passedOn() {
    return passedOn.sum();
  }

  /** Keys whose refusal is remembered now (approximate). */
  public long rememberedKeys() {
    return refusals.estimatedSize();
  }

  /** Runs pending expiry and eviction now; for tests. */
  void cleanUp() {
    refusals.cleanUp();
  }

  public LimiterStore shared() {
    return shared;
  }
}
