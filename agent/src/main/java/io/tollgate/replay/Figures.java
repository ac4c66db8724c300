package io.tollgate.replay;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Numbers, shares, times and keys as both reports print them. */
final class Figures {

  private static final DateTimeFormatter SECOND =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT).withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter MINUTE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm", Locale.ROOT).withZone(ZoneOffset.UTC);
  /** Keys longer than this are cut: a client can send a header of kilobytes. */
  static final int KEY_CHARS = 64;

  private Figures() {}

  /** {@code 1234567} → {@code 1,234,567}. */
  static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** {@code 0.01234} → {@code 1.23%}. */
  static String share(double fraction) {
    return String.format(Locale.ROOT, "%.2f%%", fraction * 100);
  }

  /** A time of the log in UTC, to the second. */
  static String time(long epochMillis) {
    return SECOND.format(Instant.ofEpochMilli(epochMillis));
  }

  /** A minute of the log in UTC, from minutes since the epoch. */
  static String minute(long epochMinute) {
    return MINUTE.format(Instant.ofEpochSecond(epochMinute * 60));
  }

  /**
   * A key as a report shows it: cut to {@value #KEY_CHARS} characters, anything but printable
   * ASCII as {@code ?} (a log's keys are whatever clients sent). HTML escapes it besides.
   */
  static String key(String key) {
    String shown = key.length() <= KEY_CHARS ? key : key.substring(0, KEY_CHARS) + "...";
    StringBuilder out = new StringBuilder(shown.length());
    for (int i = 0; i < shown.length(); i++) {
      char c = shown.charAt(i);
      out.append(c >= 0x20 && c < 0x7f ? c : '?');
    }
    return out.toString();
  }
}
