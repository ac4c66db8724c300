package io.tollgate.outbound;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * How long a partner asks to be left alone, read from its answer: a 429 or 503 with {@code
 * Retry-After} (seconds or an HTTP date), or a {@code RateLimit} header with no quota left ({@code
 * r=0} with its {@code t}, as the IETF draft writes it; {@code remaining=0} with {@code reset} in
 * its older form; or {@code RateLimit-Remaining: 0} with {@code RateLimit-Reset}).
 */
final class PartnerWait {

  private PartnerWait() {}

  /**
   * Nanoseconds the partner asks callers to wait, from now ({@code nowMillis}, the wall clock,
   * for a Retry-After date); 0 when it asks nothing.
   */
  static long nanos(int status, Function<String, String> header, long nowMillis) {
    if (status == 429 || status == 503) {
      long retryAfter = retryAfter(header.apply("Retry-After"), nowMillis);
      if (retryAfter > 0) {
        return retryAfter;
      }
    }
    long rateLimit = rateLimit(header.apply("RateLimit"));
    if (rateLimit > 0) {
      return rateLimit;
    }
    if ("0".equals(trim(header.apply("RateLimit-Remaining")))) {
      return seconds(trim(header.apply("RateLimit-Reset")));
    }
    return 0;
  }

  /** {@code Retry-After}: delay-seconds or an HTTP date; 0 when absent, past or unreadable. */
  static long retryAfter(String value, long nowMillis) {
    String v = trim(value);
    if (v == null) {
      return 0;
    }
    long seconds = seconds(v);
    if (seconds > 0) {
      return seconds;
    }
    try {
      long at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
      return at > nowMillis ? TimeUnit.MILLISECONDS.toNanos(at - nowMillis) : 0;
    } catch (DateTimeParseException e) {
      return 0;
    }
  }

  /**
   * A {@code RateLimit} field with no quota left: {@code "name";r=0;t=5} (draft 9 on) or {@code
   * limit=10, remaining=0, reset=5} (earlier drafts); the wait it gives, else 0.
   */
  static long rateLimit(String value) {
    String v = trim(value);
    if (v == null) {
      return 0;
    }
    String remaining = null;
    String reset = null;
    for (String part : v.split("[;,]")) {
      String p = part.trim().toLowerCase(Locale.ROOT);
      int eq = p.indexOf('=');
      if (eq <= 0) {
        continue;
      }
      String name = p.substring(0, eq).trim();
      String val = p.substring(eq + 1).trim();
      if (name.equals("r") || name.equals("remaining")) {
        remaining = remaining == null ? val : remaining;
      } else if (name.equals("t") || name.equals("reset")) {
        reset = reset == null ? val : reset;
      }
    }
    return "0".equals(remaining) ? seconds(reset) : 0;
  }

  /** Whole seconds as nanoseconds; 0 when not a positive number of them. */
  private static long seconds(String v) {
    if (v == null || v.isEmpty() || v.length() > 9) {
      return 0;
    }
    for (int i = 0; i < v.length(); i++) {
      if (v.charAt(i) < '0' || v.charAt(i) > '9') {
        return 0;
      }
    }
    return TimeUnit.SECONDS.toNanos(Long.parseLong(v));
  }

  private static String trim(String v) {
    if (v == null) {
      return null;
    }
    String t = v.trim();
    return t.isEmpty() ? null : t;
  }
}
