package io.tollgate.replay.log;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Log timestamps to epoch milliseconds, fast: hand-written parsers (no {@code java.time}
 * formatter, no exception on a bad value) with caches, because a busy log repeats the same second
 * on hundreds of lines and the same day on millions.
 *
 * <p>Understood: the NCSA {@code %t} form {@code 10/Oct/2000:13:55:36 -0700} (with or without its
 * brackets, optionally with a fraction of a second after the seconds, as Tomcat writes for
 * {@code %{...SSS}t}); ISO-8601 {@code 2000-10-10T13:55:36.123+02:00} ({@code Z}, {@code +hh:mm},
 * {@code +hhmm}, {@code +hh}, a space instead of {@code T}; no offset means UTC); epoch numbers,
 * read as seconds below 10^11, milliseconds below 10^14, microseconds below 10^17, else
 * nanoseconds (nginx {@code $msec} is seconds with a fraction: {@code 1700000000.123}).
 *
 * <p>Failures return {@link #INVALID}. One instance per parser: the caches are not thread-safe.
 */
final class Timestamps {

  /** Returned for a value that is not a timestamp. */
  static final long INVALID = Long.MIN_VALUE;

  private static final long MILLIS_PER_DAY = 86_400_000L;

  // The last NCSA timestamp, whole: most lines repeat the second of the line before.
  private final byte[] lastNcsa = new byte[64];
  private int lastNcsaLength = -1;
  private long lastNcsaMillis;

  // The last NCSA day and zone ("10/Oct/2000" and "-0700"): a new second, the same day.
  private final byte[] lastDay = new byte[11];
  private final byte[] lastZone = new byte[8];
  private int lastZoneLength = -1;
  private long lastDayMillis; // midnight of lastDay in lastZone, as epoch millis

  // The last text timestamp (JSON values).
  private String lastText;
  private long lastTextMillis;

  /** An NCSA {@code %t} value, without its brackets, from bytes. */
  long parseNcsa(byte[] b, int s, int e) {
    int length = e - s;
    if (length == lastNcsaLength && Arrays.equals(b, s, e, lastNcsa, 0, length)) {
      return lastNcsaMillis;
    }
    long millis = parseNcsaUncached(b, s, e);
    if (millis != INVALID && length <= lastNcsa.length) {
      System.arraycopy(b, s, lastNcsa, 0, length);
      lastNcsaLength = length;
      lastNcsaMillis = millis;
    }
    return millis;
  }

  private long parseNcsaUncached(byte[] b, int s, int e) {
    // dd/MMM/yyyy:HH:mm:ss[.fff][ +hhmm]
    if (e - s < 20 || b[s + 2] != '/' || b[s + 6] != '/' || b[s + 11] != ':'
        || b[s + 14] != ':' || b[s + 17] != ':') {
      return INVALID;
    }
    int hour = twoDigits(b, s + 12);
    int minute = twoDigits(b, s + 15);
    int second = twoDigits(b, s + 18);
    if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60) {
      return INVALID;
    }
    int p = s + 20;
    int fractionMillis = 0;
    if (p < e && (b[p] == '.' || b[p] == ',')) {
      int q = p + 1;
      int scale = 100;
      while (q < e && isDigit(b[q])) {
        fractionMillis += (b[q] - '0') * scale;
        scale /= 10;
        q++;
      }
      if (q == p + 1) {
        return INVALID;
      }
      p = q;
    }
    int zoneStart = p;
    while (zoneStart < e && b[zoneStart] == ' ') {
      zoneStart++;
    }
    int zoneLength = e - zoneStart;
    if (zoneStart == p && zoneLength > 0) {
      return INVALID; // seconds run into something else
    }
    long dayMillis;
    if (zoneLength == lastZoneLength
        && Arrays.equals(b, s, s + 11, lastDay, 0, 11)
        && Arrays.equals(b, zoneStart, e, lastZone, 0, zoneLength)) {
      dayMillis = lastDayMillis;
    } else {
      int day = twoDigits(b, s);
      int month = month(b, s + 3);
      int year = fourDigits(b, s + 7);
      if (month < 0 || year < 0 || day < 1 || day > daysInMonth(year, month)) {
        return INVALID;
      }
      long offset = zoneLength == 0 ? 0 : zoneOffsetMillis(b, zoneStart, e);
      if (offset == INVALID || zoneLength > lastZone.length) {
        return INVALID;
      }
      dayMillis = daysFromCivil(year, month, day) * MILLIS_PER_DAY - offset;
      System.arraycopy(b, s, lastDay, 0, 11);
      System.arraycopy(b, zoneStart, lastZone, 0, zoneLength);
      lastZoneLength = zoneLength;
      lastDayMillis = dayMillis;
    }
    return dayMillis + (hour * 3600L + minute * 60L + second) * 1000L + fractionMillis;
  }

  /**
   * A timestamp written as text in any of the understood forms (a JSON value: ISO-8601, NCSA with
   * or without brackets, an epoch number).
   */
  long parseText(String text) {
    if (text.equals(lastText)) {
      return lastTextMillis;
    }
    long millis = parseTextUncached(text.trim());
    if (millis != INVALID) {
      lastText = text;
      lastTextMillis = millis;
    }
    return millis;
  }

  private long parseTextUncached(String t) {
    if (t.isEmpty()) {
      return INVALID;
    }
    if (t.charAt(0) == '[' && t.charAt(t.length() - 1) == ']') {
      t = t.substring(1, t.length() - 1);
    }
    if (t.length() >= 10 && t.charAt(4) == '-') {
      return parseIso(t);
    }
    if (t.length() >= 20 && t.charAt(2) == '/') {
      byte[] bytes = t.getBytes(StandardCharsets.ISO_8859_1);
      return parseNcsaUncached(bytes, 0, bytes.length);
    }
    return parseEpoch(t);
  }

  /** {@code yyyy-MM-dd[T ]HH:mm[:ss[.f...]][Z|+hh:mm|+hhmm|+hh]}. */
  static long parseIso(String t) {
    int n = t.length();
    int year = digits(t, 0, 4);
    int month = digits(t, 5, 2);
    int day = digits(t, 8, 2);
    if (year < 0 || month < 1 || month > 12 || t.charAt(7) != '-' || day < 1
        || day > daysInMonth(year, month) || n < 16) {
      return INVALID;
    }
    char separator = t.charAt(10);
    if (separator != 'T' && separator != 't' && separator != ' ') {
      return INVALID;
    }
    int hour = digits(t, 11, 2);
    int minute = digits(t, 14, 2);
    if (hour < 0 || hour > 23 || t.charAt(13) != ':' || minute < 0 || minute > 59) {
      return INVALID;
    }
    int p = 16;
    int second = 0;
    int fractionMillis = 0;
    if (p < n && t.charAt(p) == ':') {
      second = digits(t, p + 1, 2);
      if (second < 0 || second > 60) {
        return INVALID;
      }
      p += 3;
      if (p < n && (t.charAt(p) == '.' || t.charAt(p) == ',')) {
        int q = p + 1;
        int scale = 100;
        while (q < n && Character.isDigit(t.charAt(q))) {
          fractionMillis += (t.charAt(q) - '0') * scale;
          scale /= 10;
          q++;
        }
        if (q == p + 1) {
          return INVALID;
        }
        p = q;
      }
    }
    long offset = 0;
    if (p < n) {
      char z = t.charAt(p);
      if ((z == 'Z' || z == 'z') && p == n - 1) {
        offset = 0;
      } else if (z == '+' || z == '-') {
        int oh = digits(t, p + 1, 2);
        int q = p + 3;
        int om = 0;
        if (q < n && t.charAt(q) == ':') {
          q++;
        }
        if (q < n) {
          om = digits(t, q, 2);
          q += 2;
        }
        if (oh < 0 || oh > 23 || om < 0 || om > 59 || q != n) {
          return INVALID;
        }
        offset = (oh * 60L + om) * 60_000L * (z == '-' ? -1 : 1);
      } else {
        return INVALID;
      }
    }
    return daysFromCivil(year, month, day) * MILLIS_PER_DAY
        + (hour * 3600L + minute * 60L + second) * 1000L
        + fractionMillis
        - offset;
  }

  /** Seconds, milliseconds, microseconds or nanoseconds since the epoch, by magnitude. */
  static long parseEpoch(String t) {
    int n = t.length();
    int dot = -1;
    for (int i = 0; i < n; i++) {
      char c = t.charAt(i);
      if (c == '.' && dot < 0) {
        dot = i;
      } else if (c < '0' || c > '9') {
        return parseEpochScientific(t);
      }
    }
    int integerDigits = dot < 0 ? n : dot;
    if (integerDigits == 0 || integerDigits > 19) {
      return INVALID;
    }
    long whole = Long.parseLong(t.substring(0, integerDigits));
    // Three fraction digits are enough: the result is in milliseconds.
    long fraction = 0;
    int fractionDigits = 0;
    for (int i = dot + 1; dot >= 0 && i < n && fractionDigits < 3; i++, fractionDigits++) {
      fraction = fraction * 10 + (t.charAt(i) - '0');
    }
    for (; fractionDigits < 3; fractionDigits++) {
      fraction *= 10;
    }
    if (whole < 100_000_000_000L) {
      return whole * 1000 + fraction; // seconds
    } else if (whole < 100_000_000_000_000L) {
      return whole; // milliseconds
    } else if (whole < 100_000_000_000_000_000L) {
      return whole / 1000; // microseconds
    }
    return whole / 1_000_000; // nanoseconds
  }

  private static long parseEpochScientific(String t) {
    double value;
    try {
      value = Double.parseDouble(t); // 1.7e9, as some JSON writers print numbers
    } catch (NumberFormatException e) {
      return INVALID;
    }
    if (!(value >= 0) || Double.isInfinite(value) || value >= 9.2e18) {
      return INVALID;
    }
    if (value < 1e11) {
      return Math.round(value * 1000);
    } else if (value < 1e14) {
      return Math.round(value);
    } else if (value < 1e17) {
      return Math.round(value / 1000);
    }
    return Math.round(value / 1_000_000);
  }

  /** {@code +hhmm}, {@code -hh:mm}, {@code Z} or {@code GMT}/{@code UTC}, in millis east of UTC. */
  private static long zoneOffsetMillis(byte[] b, int s, int e) {
    int length = e - s;
    if (length == 1 && (b[s] == 'Z' || b[s] == 'z')) {
      return 0;
    }
    if (length == 3 && ((b[s] == 'G' && b[s + 1] == 'M' && b[s + 2] == 'T')
        || (b[s] == 'U' && b[s + 1] == 'T' && b[s + 2] == 'C'))) {
      return 0;
    }
    if ((length != 5 && length != 6) || (b[s] != '+' && b[s] != '-')) {
      return INVALID;
    }
    int hours = twoDigits(b, s + 1);
    int minutes = length == 5 ? twoDigits(b, s + 3) : (b[s + 3] == ':' ? twoDigits(b, s + 4) : -1);
    if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) {
      return INVALID;
    }
    long offset = (hours * 60L + minutes) * 60_000L;
    return b[s] == '-' ? -offset : offset;
  }

  private static int month(byte[] b, int p) {
    int c0 = b[p] | 0x20;
    int c1 = b[p + 1] | 0x20;
    int c2 = b[p + 2] | 0x20;
    switch ((c0 << 16) | (c1 << 8) | c2) {
      case ('j' << 16) | ('a' << 8) | 'n': return 1;
      case ('f' << 16) | ('e' << 8) | 'b': return 2;
      case ('m' << 16) | ('a' << 8) | 'r': return 3;
      case ('a' << 16) | ('p' << 8) | 'r': return 4;
      case ('m' << 16) | ('a' << 8) | 'y': return 5;
      case ('j' << 16) | ('u' << 8) | 'n': return 6;
      case ('j' << 16) | ('u' << 8) | 'l': return 7;
      case ('a' << 16) | ('u' << 8) | 'g': return 8;
      case ('s' << 16) | ('e' << 8) | 'p': return 9;
      case ('o' << 16) | ('c' << 8) | 't': return 10;
      case ('n' << 16) | ('o' << 8) | 'v': return 11;
      case ('d' << 16) | ('e' << 8) | 'c': return 12;
      default: return -1;
    }
  }

  private static boolean isDigit(byte c) {
    return c >= '0' && c <= '9';
  }

  private static int twoDigits(byte[] b, int p) {
    if (!isDigit(b[p]) || !isDigit(b[p + 1])) {
      return -1;
    }
    return (b[p] - '0') * 10 + (b[p + 1] - '0');
  }

  private static int fourDigits(byte[] b, int p) {
    int high = twoDigits(b, p);
    int low = twoDigits(b, p + 2);
    return high < 0 || low < 0 ? -1 : high * 100 + low;
  }

  private static int digits(String t, int from, int count) {
    if (from + count > t.length()) {
      return -1;
    }
    int value = 0;
    for (int i = from; i < from + count; i++) {
      char c = t.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }

  static int daysInMonth(int year, int month) {
    switch (month) {
      case 2:
        boolean leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        return leap ? 29 : 28;
      case 4: case 6: case 9: case 11:
        return 30;
      default:
        return 31;
    }
  }

  /** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
  static long daysFromCivil(int year, int month, int day) {
    long y = month <= 2 ? year - 1 : year;
    long era = (y >= 0 ? y : y - 399) / 400;
    long yearOfEra = y - era * 400;
    long dayOfYear = (153L * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    long dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
    return era * 146097 + dayOfEra - 719468;
  }
}
