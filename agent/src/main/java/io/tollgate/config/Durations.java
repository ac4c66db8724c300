package io.tollgate.config;

import io.tollgate.limiters.LimitSpec;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Durations as the rules file writes them: a whole number followed by a unit, such as {@code 500ms},
 * {@code 10s}, {@code 1m}, {@code 1h} or {@code 1d}; also {@code ns} and {@code us}.
 */
public final class Durations {
  /** The accepted forms, for error messages. */
  public static final String ACCEPTED_FORMS =
      "a whole number followed by a unit: ns, us, ms, s, m, h or d (for example 500ms, 10s, 1m, 1h, 1d)";

  private static final String[] UNITS = {"d", "h", "m", "s", "ms", "us", "ns"};
  private static final long[] NANOS = {
    TimeUnit.DAYS.toNanos(1),
    TimeUnit.HOURS.toNanos(1),
    TimeUnit.MINUTES.toNanos(1),
    TimeUnit.SECONDS.toNanos(1),
    TimeUnit.MILLISECONDS.toNanos(1),
    TimeUnit.MICROSECONDS.toNanos(1),
    1L
  };

  private Durations() {}

  /**
   * Parses {@code <digits><unit>} into nanoseconds. Surrounding spaces are ignored; a space between
   * the number and the unit is not allowed, and neither are signs, fractions or a missing unit.
   *
   * @throws IllegalArgumentException on anything else, or when the value overflows a long
   */
  public static long parseNanos(String text) {
    if (text == null) {
      throw new IllegalArgumentException("no duration given; expected " + ACCEPTED_FORMS);
    }
    String s = text.trim();
    int i = 0;
    while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
      i++;
    }
    if (i == 0 || i == s.length()) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a duration; expected " + ACCEPTED_FORMS);
    }
    String unit = s.substring(i);
    long perUnit = -1;
    for (int u = 0; u < UNITS.length; u++) {
      if (UNITS[u].equals(unit)) {
        perUnit = NANOS[u];
        break;
      }
    }
    if (perUnit < 0) {
      throw new IllegalArgumentException(
          "'" + text + "' has an unknown unit '" + unit + "'; expected " + ACCEPTED_FORMS);
    }
    long amount;
    try {
      amount = Long.parseLong(s.substring(0, i));
      return Math.multiplyExact(amount, perUnit);
    } catch (NumberFormatException | ArithmeticException e) {
      throw new IllegalArgumentException("'" + text + "' is too long a duration", e);
    }
  }

  /** Formats nanoseconds in the largest unit that represents them exactly, e.g. {@code "1m"}. */
  public static String format(long nanos) {
    if (nanos == 0) {
      return "0s";
    }
    if (nanos < 0) {
      throw new IllegalArgumentException("negative duration: " + nanos + "ns");
    }
    for (int u = 0; u < UNITS.length; u++) {
      if (nanos % NANOS[u] == 0) {
        return (nanos / NANOS[u]) + UNITS[u];
      }
    }
    return nanos + "ns";
  }

  /** A limit as the rules file writes it: {@code 10/1m}, then {@code burst 20} when not the limit. */
  public static String format(LimitSpec limit) {
    return limit.limit() + "/" + format(limit.periodNanos())
        + (limit.burst() != limit.limit() ? " burst " + limit.burst() : "");
  }

  /** Limits as the rules file writes them, in a list: {@code [10/1s, 1000/1h burst 50]}. */
  public static String format(List<LimitSpec> limits) {
    StringBuilder sb = new StringBuilder("[");
    for (LimitSpec limit : limits) {
      sb.append(sb.length() > 1 ? ", " : "").append(format(limit));
    }
    return sb.append(']').toString();
  }
}
