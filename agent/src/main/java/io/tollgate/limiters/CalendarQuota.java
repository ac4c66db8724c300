package io.tollgate.limiters;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.temporal.TemporalAdjusters;

/**
 * A fixed window on calendar boundaries in a time zone: "1000 per calendar day in Europe/Paris"
 * counts from local midnight to the next local midnight, so the window is 23 or 25 hours long on
 * the days the clocks change, and a month runs from the 1st at 00:00 local to the next 1st. Days,
 * ISO weeks (from Monday), months and years.
 *
 * <p>Within a window it decides exactly as {@link FixedWindow}: allowed while the count plus the
 * cost is at most the limit; a refused request counts nothing; retry-after and reset are the time
 * until the next local window starts. A cost larger than the limit can never pass: it is refused
 * with a retry-after of the current window's length (a back-off, not a promise). Where a zone
 * skips local midnight (a DST change at 00:00, as Brazil had), the window starts at the first
 * local time that exists that day.
 *
 * <p>Choose it for quotas that people plan with a calendar: API plans per day or month, daily
 * message caps. For a rate, prefer {@link TokenBucket} or {@link SlidingWindow}: a calendar window
 * lets the whole quota go in the last minute of one day and again in the first of the next.
 *
 * <p>The window's bounds come from {@code java.time} and are cached, so a decision allocates only
 * when the first request of a new window arrives. The advertised policy uses nominal lengths: a
 * day of 86400 s, a week of 7 days, a month of 30 days, a year of 365 days.
 */
public final class CalendarQuota implements RateLimitAlgorithm<CalendarQuota.State> {

  private static final long DAY_NANOS = 86_400L * 1_000_000_000L;

  /** The calendar unit of the window. */
  public enum Unit {
    DAY(1),
    WEEK(7),
    MONTH(30),
    YEAR(365);

    final long nominalDays;

    Unit(long nominalDays) {
      this.nominalDays = nominalDays;
    }
  }

  /** Per-key state: the start of the key's window (epoch nanos) and the units counted in it. */
  public static final class State extends KeyState {
    long windowStart;
    long count;

    public long windowStart() {
      return windowStart;
    }

    public long count() {
      return count;
    }
  }

  /** One window's bounds, epoch nanos, {@code [start, end)}. */
  private static final class Window {
    final long start;
    final long end;

    Window(long start, long end) {
      this.start = start;
      this.end = end;
    }
  }

  private final long limit;
  private final Unit unit;
  private final ZoneId zone;
  private volatile Window cached;

  public CalendarQuota(long limit, Unit unit, ZoneId zone) {
    if (limit <= 0) {
      throw new IllegalArgumentException("limit must be positive: " + limit);
    }
    if (unit == null || zone == null) {
      throw new IllegalArgumentException("a calendar quota needs a unit and a time zone");
    }
    this.limit = limit;
    this.unit = unit;
    this.zone = zone;
  }

  @Override
  public State newState() {
    return new State();
  }

  @Override
  public void decide(State state, long nowNanos, long cost, Verdict verdict) {
    Window window = cached;
    if (window == null || nowNanos < window.start || nowNanos >= window.end) {
      window = windowAt(nowNanos);
      cached = window;
    }
    long untilNextWindow = window.end - nowNanos;
    if (state.windowStart != window.start) {
      state.windowStart = window.start;
      state.count = 0;
    }
    if (cost > limit) {
      verdict.refuse(limit - state.count, window.end - window.start, untilNextWindow);
    } else if (cost <= limit - state.count) {
      state.count += cost;
      verdict.allow(limit - state.count, untilNextWindow);
    } else {
      verdict.refuse(limit - state.count, untilNextWindow, untilNextWindow);
    }
  }

  /**
   * Adds {@code delta} to the count of the calendar window now running, kept between 0 and the
   * limit; a request that began in an earlier window is not corrected.
   */
  @Override
  public void adjust(State state, long nowNanos, long delta) {
    Window window = cached;
    if (window == null || nowNanos < window.start || nowNanos >= window.end) {
      window = windowAt(nowNanos);
      cached = window;
    }
    if (state.windowStart == window.start) {
      state.count = Math.max(0, Math.min(limit, state.count + delta));
    }
  }

  /**
   * The bounds of the calendar window containing this instant, epoch nanos {@code [start, end)}:
   * what a shared store passes to its script, which has no calendar.
   */
  public long[] windowBoundsAt(long nowNanos) {
    Window window = windowAt(nowNanos);
    return new long[] {window.start, window.end};
  }

  /** The calendar window containing this instant. */
  Window windowAt(long nowNanos) {
    Instant instant =
        Instant.ofEpochSecond(
            Math.floorDiv(nowNanos, 1_000_000_000L), Math.floorMod(nowNanos, 1_000_000_000L));
    LocalDate today = instant.atZone(zone).toLocalDate();
    LocalDate first;
    LocalDate next;
    switch (unit) {
      case DAY:
        first = today;
        next = first.plusDays(1);
        break;
      case WEEK:
        first = today.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
        next = first.plusWeeks(1);
        break;
      case MONTH:
        first = today.withDayOfMonth(1);
        next = first.plusMonths(1);
        break;
      case YEAR:
        first = today.withDayOfYear(1);
        next = first.plusYears(1);
        break;
      default:
        throw new IllegalStateException(String.valueOf(unit));
    }
    return new Window(startOf(first), startOf(next));
  }

  private long startOf(LocalDate date) {
    Instant start = date.atStartOfDay(zone).toInstant();
    return start.getEpochSecond() * 1_000_000_000L + start.getNano();
  }

  /**
   * The count of the window in force is kept, up to the new limit, while the window is the same
   * (a new unit or time zone makes other windows, which start afresh).
   */
  @Override
  public State inherit(RateLimitAlgorithm<?> previous, Object previousState, long nowNanos) {
    if (!(previous instanceof CalendarQuota)) {
      return null;
    }
    State was = (State) previousState;
    long[] bounds = ((CalendarQuota) previous).windowBoundsAt(nowNanos);
    if (was.windowStart != bounds[0] || was.count == 0 || windowBoundsAt(nowNanos)[0] != bounds[0]
        || windowBoundsAt(nowNanos)[1] != bounds[1]) {
      return null;
    }
    State state = new State();
    state.windowStart = was.windowStart;
    state.count = Math.min(limit, was.count);
    return state;
  }

  @Override
  public long idleNanosUntilFresh() {
    // Longer than any window (a 31-day month, a 366-day year), even with a zone's offset change of
    // up to a day in it: after it, the key is in a later window and its count starts from zero.
    return (unit.nominalDays + 2) * DAY_NANOS;
  }

  @Override
  public QuotaPolicy policy() {
    return QuotaPolicy.of(limit, unit.nominalDays * DAY_NANOS);
  }

  public long limit() {
    return limit;
  }

  public Unit unit() {
    return unit;
  }

  public ZoneId zone() {
    return zone;
  }
}
