package io.tollgate.stores.redis;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.Verdict;
import io.tollgate.logging.RateLimitedLog;
import io.tollgate.stores.LimiterStore;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Token leasing for hot keys ({@code redis: lease-tokens: N}): for a key this instance sees at least
 * {@code N} times a second, one round trip takes {@code N} tokens from the shared bucket, and they
 * are handed out here, for at most {@link #LEASE_NANOS} after the lease was asked for.
 *
 * <p><b>The next lease is taken ahead.</b> When a request leaves fewer than {@code ceil(N/2)}
 * tokens held, it sends the next lease's call ({@link RedisAlgorithmStore#decideInBackground}) and
 * goes on without waiting for it; the requests meanwhile spend the tokens still held, and its reply
 * adds {@code N} more. A request that finds none held while a lease is being asked for waits for
 * it, at most until the backend's {@code timeout} since the lease was sent (never longer than one
 * round trip waits before it is late, so never beyond {@code max-wait}). Past that the lease is
 * late: until it comes back, or is a whole {@link #LEASE_NANOS} old, a request that finds no token
 * held is decided at once by the rule's local share, as a call not sent because Redis is slow
 * ({@link RedisFailure#BUSY}; {@link FailurePolicyStore} charges what the share allowed to Redis
 * afterwards), rather than add a call to what the slow Redis has queued. With no token held and no
 * lease asked for, a hot key's lease is asked for by the request that needs it, in its own round
 * trip, as before. (Before leases were taken ahead, every request of the key asked Redis for one
 * token of its own while a lease was on its way, and on one core a round trip lasts as long as
 * dozens of requests: BENCHMARKS.md, section 3.)
 *
 * <p><b>The accuracy bound</b>, per key: at most one lease is asked for at a time (another only
 * once the one asked for is a whole {@link #LEASE_NANOS} old, when its tokens would have expired
 * anyway, so that its reply, if it comes, adds nothing), and it is asked for only when fewer than
 * {@code ceil(N/2)} tokens are held. So each instance holds at most {@code H = N + ceil(N/2) - 1}
 * tokens at a time (149 for {@code N = 100}; {@code N - 1} before leases were taken ahead), each
 * for at most {@link #LEASE_NANOS}. Compared with a round trip per request,
 *
 * <ul>
 *   <li>over-admission: every request allowed here spent a token Redis took, and held tokens are
 *       all that is outside the bucket, so what {@code k} instances admit together fits a bucket
 *       of the same rate whose burst is larger by {@code k * H}, never more;
 *   <li>under-use: tokens held by one instance are not available to the others (a key can be
 *       refused elsewhere while up to {@code H} of its tokens wait here); held tokens that expire or
 *       are evicted unused are lost (at most {@code H}), and so is a lease whose reply never comes
 *       (the connection lost, an error reply: Redis may have taken its {@code N}) or comes after
 *       {@link #LEASE_NANOS}. A lease is never added twice nor added unasked: a failed one adds
 *       nothing, and until Redis answers for the key again none is taken ahead (the next is
 *       asked for by the request that needs it, in its own call, which fails as any call does).
 * </ul>
 *
 * <p>A lease is asked for only while Redis last reported at least {@code N} tokens left, so near
 * the limit every request is decided by Redis again (one round trip each, not two); a lease asked
 * for by a request in a race and refused is followed by an ordinary request of cost 1, one taken
 * ahead and refused by nothing. Only requests of cost 1 are leased; others go to Redis as before.
 * The {@code remaining} reported for a request allowed here is Redis's last figure plus the tokens
 * this instance still holds, which is what Redis would have said had this instance's requests been
 * its only ones.
 *
 * <p>Memory: one small entry per key seen in the last two seconds, at most {@code maxKeys}.
 */
public final class TokenLeaseStore implements LimiterStore {

  /** How long a lease's tokens may be used, from when it was asked for; those left are given up. */
  public static final long LEASE_NANOS = TimeUnit.SECONDS.toNanos(1);

  /** A late lease is said once a minute per rule: its requests are decided by the share. */
  private static final RateLimitedLog LATE_LEASES = new RateLimitedLog(60_000);

  private final RedisAlgorithmStore shared;
  private final Clock clock;
  private final long leaseTokens;
  /** The next lease is asked for when a request leaves fewer tokens than this: {@code ceil(N/2)}. */
  private final long aheadBelow;
  private final Cache<String, Lease> leases;
  /** What the leases did: the rule's, kept across reloads ({@code status}, the metrics). */
  private final LeaseCounters counters;

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
    /** The number of the lease being asked for (0: none), and when: by the clock, by nanoTime. */
    long asking;
    long askedAt;
    long askedNanos;
    /** The last lease's number. */
    long numbered;
    /** Requests waiting here for the lease being asked for. */
    int waiting;
    /**
     * The last lease taken ahead failed, and Redis has not answered for the key since: the next
     * lease is asked for by a request that needs it, in its own call, with its errors.
     */
    boolean aheadFailed;

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

    /** A lease is asked for and could still add its tokens (younger than {@link #LEASE_NANOS}). */
    boolean askingInTime(long now) {
      return asking != 0 && now - askedAt < LEASE_NANOS;
    }

    /** Starts lease number {@link #numbered} + 1: only one at a time, see the class comment. */
    long ask(long now) {
      asking = ++numbered;
      askedAt = now;
      askedNanos = System.nanoTime();
      return asking;
    }
  }

  /**
   * @param shared the store leased from (a token bucket's {@link RedisGcraStore}); its {@link
   *     BackendUnavailableException}s pass through
   * @param leaseTokens {@code N}, at least 2
   * @param maxKeys at most this many keys are tracked
   */
  public TokenLeaseStore(RedisAlgorithmStore shared, Clock clock, long leaseTokens, long maxKeys) {
    this(shared, clock, leaseTokens, maxKeys, new LeaseCounters());
  }

  /**
   * As above, counting into {@code counters}: the rule's, which outlive this store when a reload
   * replaces it.
   */
  public TokenLeaseStore(RedisAlgorithmStore shared, Clock clock, long leaseTokens, long maxKeys,
      LeaseCounters counters) {
    if (leaseTokens < 2) {
      throw new IllegalArgumentException("a lease is at least 2 tokens: " + leaseTokens);
    }
    this.shared = shared;
    this.clock = clock;
    this.leaseTokens = leaseTokens;
    this.aheadBelow = (leaseTokens + 1) / 2;
    this.counters = counters;
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
      counters.countDecidedByRedis();
      shared.decide(key, cost, verdict);
      return;
    }
    long arrivedAt = clock.nowNanos();
    Lease lease = leases.get(key, ignored -> new Lease(arrivedAt));
    long now = arrivedAt;
    long ask;
    long number = 0;
    synchronized (lease) {
      lease.count(now);
      giveUpExpired(lease, now);
      if (lease.tokens == 0 && lease.askingInTime(now)) {
        counters.countWaitedForLease();
        if (!awaitLease(lease)) {
          counters.countDecidedByShare();
          long lateMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lease.askedNanos);
          LATE_LEASES.warn(shared.ruleName(), () -> "rule '" + shared.ruleName() + "': a lease of "
              + leaseTokens + " tokens has had no reply from redis for " + lateMillis + " ms;"
              + " requests that find no token held are decided by the rule's local share until it"
              + " comes (the redis is slow, or the host is overloaded)");
          throw new BackendUnavailableException(
              "no token of a lease of " + leaseTokens + " asked of redis "
                  + lateMillis + " ms ago", null, 0, RedisFailure.BUSY);
        }
        now = clock.nowNanos();
        giveUpExpired(lease, now);
      }
      if (lease.tokens > 0) {
        lease.tokens--;
        counters.countAllowedFromLease();
        verdict.allow(
            lease.sharedRemaining + lease.tokens, lease.resetAt - now, lease.nextUnitAt - now);
        if (lease.tokens >= aheadBelow || lease.askingInTime(now) || lease.aheadFailed
            || !mayLease(lease)) {
          return;
        }
        number = lease.ask(now);
        ask = 0; // taken ahead, in the background, below
      } else if (!lease.askingInTime(now) && mayLease(lease)) {
        ask = leaseTokens;
        number = lease.ask(now);
      } else {
        ask = 1;
      }
    }
    if (ask == 0) {
      leaseAhead(key, lease, number, now);
      return;
    }
    counters.countDecidedByRedis();
    Verdict leased = null;
    boolean answered = false;
    try {
      shared.decide(key, ask, verdict);
      if (ask > 1 && verdict.allowed) {
        leased = copyOf(verdict);
      } else if (ask > 1) {
        shared.decide(key, 1, verdict); // fewer than a lease left: this request alone
      }
      answered = true;
    } finally {
      long held;
      synchronized (lease) {
        if (ask > 1) {
          arrived(lease, number, now, leased, ask - 1, !answered);
        }
        if (answered && leased == null) {
          learn(lease, now, verdict);
        }
        held = lease.tokens;
      }
      if (answered && verdict.allowed) {
        // What Redis would have said had this instance's requests been its only ones.
        verdict.allow(verdict.remaining + held, verdict.resetNanos, verdict.nextUnitNanos);
      }
    }
  }

  /** Tokens held past their second are given up unused (the under-use the bound allows). */
  private void giveUpExpired(Lease lease, long now) {
    if (lease.tokens > 0 && now >= lease.expiresAt) {
      counters.tokensGivenUp(lease.tokens);
      lease.tokens = 0;
    }
  }

  /** Hot, and Redis last said there is at least a lease left: near the limit, no leases. */
  private boolean mayLease(Lease lease) {
    return lease.hot(leaseTokens) && lease.sharedRemaining >= leaseTokens;
  }

  /**
   * Waits (the monitor released meanwhile) for a token of the lease being asked for, or of the next
   * one should others take all of it first, until no lease is being asked for or until the
   * backend's timeout since this wait or the lease asked for began, whichever began first.
   *
   * @return false when it is late: no token by then (or this thread interrupted)
   */
  private boolean awaitLease(Lease lease) {
    long waitFrom = System.nanoTime();
    long timeout = timeoutNanos();
    lease.waiting++;
    try {
      while (lease.tokens == 0 && lease.askingInTime(clock.nowNanos())) {
        long from = lease.askedNanos - waitFrom < 0 ? lease.askedNanos : waitFrom;
        long left = from + timeout - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(lease, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
      return true;
    } finally {
      lease.waiting--;
    }
  }

  /** How long a request waits for a lease being asked for: the backend's timeout. */
  private long timeoutNanos() {
    RedisBackend backend = shared.backend();
    return backend == null ? 0 : backend.settings().timeout().toNanos();
  }

  /** Asks for lease {@code number} of {@code key} without waiting for it. */
  private void leaseAhead(String key, Lease lease, long number, long askedAt) {
    counters.leaseAskedAhead();
    boolean sent =
        shared.decideInBackground(key, leaseTokens, (decided, failure) -> {
          synchronized (lease) {
            arrived(lease, number, askedAt, decided, leaseTokens, decided == null);
            lease.aheadFailed |= decided == null;
          }
        });
    if (!sent) {
      synchronized (lease) {
        arrived(lease, number, askedAt, null, leaseTokens, false);
        lease.aheadFailed = true;
      }
    }
  }

  /**
   * Lease {@code number}, asked for at {@code askedAt}, came back: {@code decided} (null when it
   * failed, or was refused in the call of a request of its own: nothing added, nothing known) gives
   * {@code forHere} tokens to hand out here, unless its tokens have expired meanwhile or a later
   * lease has replaced it: then it is lost, as is one that {@code failed} (Redis may have taken
   * its tokens). Wakes the requests waiting for it. Holding {@code lease}'s monitor.
   */
  private void arrived(
      Lease lease, long number, long askedAt, Verdict decided, long forHere, boolean failed) {
    boolean granted = decided != null && decided.allowed;
    if (lease.asking != number) {
      if (granted || failed) {
        counters.leaseLost(); // replaced, being a whole lease old: its tokens had expired
      }
      return;
    }
    lease.asking = 0;
    if (failed) {
      counters.leaseLost();
    }
    if (decided != null) {
      long now = clock.nowNanos();
      if (granted && now - askedAt < LEASE_NANOS) {
        giveUpExpired(lease, now);
        lease.tokens += forHere;
        lease.expiresAt = askedAt + LEASE_NANOS;
        counters.leaseArrived(forHere);
      } else if (granted) {
        counters.leaseLost(); // after its second: its tokens would have expired
      }
      learn(lease, askedAt, decided);
    }
    if (lease.waiting > 0) {
      lease.notifyAll();
    }
  }

  /** Redis's last answer for the key, given at about {@code at}. */
  private static void learn(Lease lease, long at, Verdict answer) {
    lease.aheadFailed = false;
    lease.sharedRemaining = answer.remaining;
    lease.resetAt = at + answer.resetNanos;
    lease.nextUnitAt = at + answer.nextUnitNanos;
  }

  private static Verdict copyOf(Verdict verdict) {
    Verdict copy = new Verdict();
    copy.allow(verdict.remaining, verdict.resetNanos, verdict.nextUnitNanos);
    return copy;
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

  /** What the leases of this store's rule did: {@code status} and the metrics show them. */
  public LeaseCounters counters() {
    return counters;
  }

  /** Requests allowed here from a lease, without a round trip of their own. */
  public long grantedLocally() {
    return counters.allowedFromLease();
  }

  /** Requests passed on to the shared store (a lease refused and retried counts once). */
  public long passedOn() {
    return counters.decidedByRedis();
  }

  /** Leases asked for ahead, in the background: no request waits on their call. */
  public long leasesAhead() {
    return counters.leasesAhead();
  }

  /** Requests that found no token held while a lease was asked for, and waited for it. */
  public long waitedForLease() {
    return counters.waitedForLease();
  }

  /** Of those, the ones whose lease was still not back at the timeout. */
  public long lateLeases() {
    return counters.decidedByShare();
  }

  public long leaseTokens() {
    return leaseTokens;
  }
}
