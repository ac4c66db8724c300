package io.tollgate.stores.redis;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.Verdict;
import io.tollgate.stores.LimiterStore;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Token leasing for hot keys ({@code redis: lease-tokens: N}): for a key this instance sees at least
 * {@code N} times a second, one round trip takes {@code N} tokens from the shared bucket, and the
 * {@code N - 1} not used by the request that took them are handed out here, for at most {@link
 * #LEASE_NANOS}.
 *
 * <p>The accuracy bound, per key: each instance holds at most {@code N - 1} tokens at a time (one
 * lease at a time, taken only when the previous one is used up or expired), for at most {@link
 * #LEASE_NANOS}. So compared with a round trip per request,
 *
 * <ul>
 *   <li>over-admission: every request allowed here spent a token Redis took, and held tokens are
 *       all that is outside the bucket, so what {@code k} instances admit together fits a bucket
 *       of the same rate whose burst is larger by {@code k * (N - 1)}, never more;
 *   <li>under-use: tokens held by one instance are not available to the others (a key can be
 *       refused elsewhere while up to {@code N - 1} of its tokens wait here), and a lease that
 *       expires or is evicted unused loses its tokens (at most {@code N - 1}).
 * </ul>
 *
 * <p>A lease is asked for only while Redis last reported at least {@code N} tokens left, so near
 * the limit every request is decided by Redis again (one round trip each, not two); a lease asked
 * for in a race and refused is followed by an ordinary request of cost 1. Only requests of cost 1
 * are leased; others go to Redis as before. The {@code remaining} reported for a request allowed
 * here is Redis's last figure plus the tokens this instance still holds, which is what Redis would
 * have said had this instance's requests been its only ones.
 *
 * <p>Memory: one small entry per key seen in the last two seconds, at most {@code maxKeys}.
 */
public final class TokenLeaseStore implements LimiterStore {

  /** How long a lease's tokens may be used; those left are then given up. */
  public static final long LEASE_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final LimiterStore shared;
  private final Clock clock;
  private final long leaseTokens;
  private final Cache<String, Lease> leases;
  private final LongAdder grantedLocally = new LongAdder();
  private final LongAdder passedOn = new LongAdder();

  /** One key's lease and how often it is asked for; guarded by its own monitor. */
  static final class Lease {
    /** Start of the current one-second window, and requests seen in it and in the one before. */
    long windowStart;
    long seen;
    long seenBefore;
    /** Leased tokens not handed out yet, usable until {@code expiresAt}. */
    long tokens;
    long expiresAt;
    /** Redis's remaining and reset (as an instant) in its last answer. */
    long sharedRemaining;
    long resetAt;
    /** When the shared quota gives one more unit back, in this process's clock. */
    long nextUnitAt;
    /** A lease is being asked for: the others ask for one token meanwhile. */
    boolean leasing;

    Lease(long now) {
      this.windowStart = now;
    }

    void count(long now) {
      long elapsed = now - windowStart;
      if (elapsed >= LEASE_NANOS) {
        seenBefore = elapsed < 2 * LEASE_NANOS ? seen : 0;
        seen = 0;
        windowStart = now;
      }
      seen++;
    }

    boolean hot(long threshold) {
      return seen >= threshold || seenBefore >= threshold;
    }
  }

  /**
   * @param shared the store leased from (a token bucket's {@link RedisGcraStore}); its {@link
   *     BackendUnavailableException}s pass through
   * @param leaseTokens {@code N}, at least 2
   * @param maxKeys at most this many keys are tracked
   */
  public TokenLeaseStore(LimiterStore shared, Clock clock, long leaseTokens, long maxKeys) {
    if (leaseTokens < 2) {
      throw new IllegalArgumentException("a lease is at least 2 tokens: " + leaseTokens);
    }
    this.shared = shared;
    this.clock = clock;
    this.leaseTokens = leaseTokens;
    this.leases =
        Caffeine.newBuilder()
            .maximumSize(Math.max(1, maxKeys))
            .expireAfterAccess(Duration.ofNanos(2 * LEASE_NANOS))
            .executor(Runnable::run)
            .ticker(clock::nowNanos)
            .build();
  }

  @Override
  public void decide(String key, long cost, Verdict verdict) {
    if (cost != 1) {
      passedOn.increment();
      shared.decide(key, cost, verdict);
      return;
    }
    long now = clock.nowNanos();
    Lease lease = leases.get(key, ignored -> new Lease(now));
    long ask;
    synchronized (lease) {
      lease.count(now);
      if (lease.tokens > 0 && now < lease.expiresAt) {
        lease.tokens--;
        grantedLocally.increment();
        verdict.allow(
            lease.sharedRemaining + lease.tokens, lease.resetAt - now, lease.nextUnitAt - now);
        return;
      }
      lease.tokens = 0; // expired unused: given up (the under-use the bound allows)
      ask =
          !lease.leasing && lease.hot(leaseTokens) && lease.sharedRemaining >= leaseTokens
              ? leaseTokens
              : 1;
      lease.leasing |= ask > 1;
    }
    passedOn.increment();
    boolean leased = false;
    boolean answered = false;
    try {
      shared.decide(key, ask, verdict);
      leased = ask > 1 && verdict.allowed;
      if (ask > 1 && !verdict.allowed) {
        shared.decide(key, 1, verdict); // fewer than a lease left: this request alone
      }
      answered = true;
    } finally {
      synchronized (lease) {
        if (ask > 1) {
          lease.leasing = false;
        }
        if (leased) {
          lease.tokens = ask - 1;
          lease.expiresAt = now + LEASE_NANOS;
        }
        if (answered) {
          lease.sharedRemaining = verdict.remaining;
          lease.resetAt = now + verdict.resetNanos;
          lease.nextUnitAt = now + verdict.nextUnitNanos;
        }
      }
    }
    if (leased) {
      verdict.allow(verdict.remaining + ask - 1, verdict.resetNanos, verdict.nextUnitNanos);
    }
  }

  @Override
  public void release(String key, long cost) {
    shared.release(key, cost);
  }

  @Override
  public void adjust(String key, long delta) {
    shared.adjust(key, delta);
  }

  @Override
  public long estimatedKeys() {
    return shared.estimatedKeys();
  }

  /** Requests allowed here from a lease, without a round trip. */
  public long grantedLocally() {
    return grantedLocally.sum();
  }

  /** Decisions passed on to the shared store (a lease refused and retried counts once). */
  public long passedOn() {
    return passedOn.sum();
  }

  public long leaseTokens() {
    return leaseTokens;
  }
}
