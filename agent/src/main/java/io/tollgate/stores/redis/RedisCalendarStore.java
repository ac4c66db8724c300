package io.tollgate.stores.redis;

import io.tollgate.limiters.CalendarQuota;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.RateLimitAlgorithm;
import io.tollgate.limiters.Verdict;
import java.util.List;

/**
 * A calendar quota's keys on Redis: {@code calendar.lua} runs {@link CalendarQuota#decide} and
 * {@link CalendarQuota#adjust} on a hash of the window's start and count.
 *
 * <p>Lua has no calendar, so the window bounds come from {@link CalendarQuota#windowBoundsAt}
 * ({@code java.time}, any zone and its DST changes): this store sends the window around this
 * host's clock and the windows on either side, cached until the host's clock leaves the window, and
 * the script picks the one Redis {@code TIME} falls in. Hosts whose clocks are off by less than a
 * window therefore agree; when Redis's time is outside all three, the script answers with it and
 * the store computes the windows around Redis's time and asks again (two round trips, only then).
 */
public final class RedisCalendarStore extends RedisAlgorithmStore {

  private static final long NANOS = 1_000_000_000L;

  private final CalendarQuota quota;
  private final Clock hostClock;
  private final String ttlMillis;
  /** Previous start, start, end, next end: the windows around the host's clock. */
  private volatile long[] bounds;

  public RedisCalendarStore(RedisBackend backend, String ruleName, CalendarQuota quota) {
    this(backend, ruleName, quota, Clock.system(), null);
  }

  /** With the clock the window bounds are computed from, and (tests) the script's "now". */
  RedisCalendarStore(
      RedisBackend backend,
      String ruleName,
      CalendarQuota quota,
      Clock hostClock,
      Clock timeOverride) {
    super(backend, ruleName, "calendar", timeOverride);
    if (quota.limit() > LUA_PERIOD_MAX) {
      throw tooLargeForLua(ruleName, "a calendar quota of " + quota.limit());
    }
    this.quota = quota;
    this.hostClock = hostClock;
    this.ttlMillis = Long.toString(ttlMillis(quota.idleNanosUntilFresh()));
  }

  /** The three windows around {@code nowNanos}. */
  private long[] boundsAround(long nowNanos) {
    long[] current = quota.windowBoundsAt(nowNanos);
    long[] previous = quota.windowBoundsAt(current[0] - 1);
    long[] next = quota.windowBoundsAt(current[1]);
    return new long[] {previous[0], current[0], current[1], next[1]};
  }

  private long[] boundsNow() {
    long now = hostClock.nowNanos();
    long[] b = bounds;
    if (b == null || now < b[1] || now >= b[2]) {
      b = boundsAround(now);
      bounds = b;
    }
    return b;
  }

  /** Runs the script with the host's windows, and again around Redis's time if it is in none. */
  private List<Object> call(String clientKey, String op, long amount, long[][] used) {
    long[] b = boundsNow();
    List<Object> reply = eval(RedisScript.CALENDAR, clientKey, argv(op, amount, b));
    if (number(reply, 0, RedisScript.CALENDAR) == -2) {
      long redisNow =
          number(reply, 1, RedisScript.CALENDAR) * NANOS + number(reply, 2, RedisScript.CALENDAR);
      b = boundsAround(redisNow);
      reply = eval(RedisScript.CALENDAR, clientKey, argv(op, amount, b));
      if (number(reply, 0, RedisScript.CALENDAR) == -2) {
        throw new BackendUnavailableException(
            "calendar.lua: Redis time moved out of the calendar windows computed for it", null, 0);
      }
    }
    used[0] = b;
    return reply;
  }

  private String[] argv(String op, long amount, long[] b) {
    return new String[] {
      op,
      now(),
      Long.toString(amount),
      Long.toString(quota.limit()),
      Long.toString(b[0]),
      Long.toString(b[1]),
      Long.toString(b[2]),
      Long.toString(b[3]),
      ttlMillis
    };
  }

  @Override
  public void decide(String clientKey, long cost, Verdict verdict) {
    checkCost(cost);
    long[][] used = new long[1][];
    List<Object> reply = call(clientKey, DECIDE, cost, used);
    long allowed = number(reply, 0, RedisScript.CALENDAR);
    long remaining = number(reply, 1, RedisScript.CALENDAR);
    long retry = number(reply, 2, RedisScript.CALENDAR);
    int index = (int) number(reply, 3, RedisScript.CALENDAR);
    long untilNext =
        number(reply, 4, RedisScript.CALENDAR) * NANOS + number(reply, 5, RedisScript.CALENDAR);
    if (allowed == 1) {
      verdict.allow(remaining, untilNext);
    } else if (retry == 2) {
      long[] b = used[0];
      verdict.refuse(remaining, b[index + 1] - b[index], untilNext);
    } else {
      verdict.refuse(remaining, untilNext, untilNext);
    }
  }

  @Override
  public void adjust(String clientKey, long delta) {
    if (delta != 0) {
      call(clientKey, ADJUST, delta, new long[1][]);
    }
  }

  @Override
  public RateLimitAlgorithm<?> algorithm() {
    return quota;
  }

  @Override
  long budget() {
    return quota.limit();
  }

  @Override
  RateLimitAlgorithm<?> dividedAmong(int instances) {
    return new CalendarQuota(Math.max(1, quota.limit() / instances), quota.unit(), quota.zone());
  }
}
