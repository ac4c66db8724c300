package io.tollgate.stores.redis;

import io.tollgate.limiters.Clock;
import io.tollgate.limiters.Concurrency;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.RateLimitAlgorithm;
import io.tollgate.limiters.Verdict;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@code concurrency} rule's keys on Redis: {@code concurrency.lua} runs {@link
 * Concurrency#decide} and {@link Concurrency#release} on a sorted set of the permits held, each
 * scored by the end of its lease.
 *
 * <p>Each allowed request takes a permit with an id unique across instances, which this store
 * remembers (per key, in memory, only while the request runs) so that {@link #release} gives back
 * that permit on Redis. Permits are interchangeable, so a release of cost {@code c} gives back any
 * permit of that cost this instance holds for the key.
 *
 * <p><b>The bound on leaked permits</b>: a permit that is never given back (the instance died or
 * was killed, or Redis did not answer the release) is forgotten when its lease ends, {@value
 * #LEASE_SECONDS} s after it was taken (every call first drops the expired ones). So a dead
 * instance's permits come back within that time; a live request that runs longer than the lease
 * loses its permit (one more request may then run), which is the same hour a local store keeps an
 * idle key for ({@link Concurrency#idleNanosUntilFresh()}).
 */
public final class RedisConcurrencyStore extends RedisAlgorithmStore {

  /** How long a permit is held at most without being given back. */
  public static final long LEASE_SECONDS = 3_600;

  private static final long RETRY_AFTER_NANOS =
      TimeUnit.SECONDS.toNanos(Concurrency.RETRY_AFTER_SECONDS);

  private final Concurrency concurrency;
  private final long limit;
  private final String leaseMillis;
  /** A prefix unique to this store, so that permit ids are unique across instances and reloads. */
  private final String permitPrefix = UUID.randomUUID().toString().substring(0, 13);
  private final AtomicLong permits = new AtomicLong();
  /** The permits this instance holds on Redis, per key: id and cost, oldest first. */
  private final ConcurrentHashMap<String, ArrayDeque<Held>> held = new ConcurrentHashMap<>();

  private static final class Held {
    final String id;
    final long cost;

    Held(String id, long cost) {
      this.id = id;
      this.cost = cost;
    }
  }

  public RedisConcurrencyStore(RedisBackend backend, String ruleName, Concurrency concurrency) {
    this(backend, ruleName, concurrency, null);
  }

  RedisConcurrencyStore(
      RedisBackend backend, String ruleName, Concurrency concurrency, Clock timeOverride) {
    super(backend, ruleName, "concurrency", timeOverride);
    this.concurrency = concurrency;
    this.limit = concurrency.spec().limit();
    if (limit > LUA_PERIOD_MAX) {
      throw tooLargeForLua(ruleName, "a concurrency limit of " + limit);
    }
    this.leaseMillis = Long.toString(TimeUnit.SECONDS.toMillis(LEASE_SECONDS));
  }

  @Override
  public void decide(String key, long cost, Verdict verdict) {
    checkCost(cost);
    String id = permitPrefix + "-" + Long.toString(permits.incrementAndGet(), 36);
    List<Object> reply =
        eval(
            RedisScript.CONCURRENCY,
            key,
            DECIDE,
            now(),
            Long.toString(cost),
            Long.toString(limit),
            leaseMillis,
            id);
    long allowed = number(reply, 0, RedisScript.CONCURRENCY);
    long remaining = number(reply, 1, RedisScript.CONCURRENCY);
    if (allowed == 1) {
      if (cost > 0) {
        held.compute(
            key,
            (k, list) -> {
              ArrayDeque<Held> permitsOfKey = list == null ? new ArrayDeque<>(2) : list;
              permitsOfKey.addLast(new Held(id, cost));
              return permitsOfKey;
            });
      }
      verdict.allow(remaining, 0);
    } else {
      verdict.refuse(remaining, RETRY_AFTER_NANOS, RETRY_AFTER_NANOS);
    }
  }

  @Override
  public void release(String key, long cost) {
    releaseShared(key, cost);
  }

  /**
   * Gives back one permit of this cost (or, if none has it, the oldest) that this instance holds
   * for the key; false when it holds none.
   */
  @Override
  boolean releaseShared(String key, long cost) {
    if (cost == 0) {
      return true; // a request of cost 0 took no permit
    }
    Held[] taken = new Held[1];
    held.computeIfPresent(
        key,
        (k, list) -> {
          Iterator<Held> it = list.iterator();
          while (it.hasNext()) {
            Held h = it.next();
            if (h.cost == cost) {
              taken[0] = h;
              it.remove();
              break;
            }
          }
          if (taken[0] == null) {
            taken[0] = list.pollFirst();
          }
          return list.isEmpty() ? null : list;
        });
    Held permit = taken[0];
    if (permit == null) {
      return false;
    }
    eval(
        RedisScript.CONCURRENCY,
        key,
        RELEASE,
        now(),
        Long.toString(permit.cost),
        Long.toString(limit),
        leaseMillis,
        permit.id);
    return true;
  }

  /** Permits this instance holds now, over all keys; for tests. */
  int heldHere() {
    int[] n = new int[1];
    held.forEach((key, list) -> held.computeIfPresent(key, (k, l) -> {
      n[0] += l.size();
      return l;
    }));
    return n[0];
  }

  @Override
  public RateLimitAlgorithm<?> algorithm() {
    return concurrency;
  }

  LimitSpec spec() {
    return concurrency.spec();
  }

  @Override
  long budget() {
    return spec().limit();
  }

  @Override
  RateLimitAlgorithm<?> dividedAmong(int instances) {
    LimitSpec spec = divided(spec(), instances);
    return new Concurrency(spec);
  }
}
