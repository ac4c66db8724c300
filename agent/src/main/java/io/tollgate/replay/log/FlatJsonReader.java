package io.tollgate.replay.log;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A minimal JSON object reader for log lines: reads one object into a flat list of names and
 * values as text. Nested objects are flattened with dotted names ({@code {"request":{"method":
 * "GET"}}} gives {@code request.method}); an array of scalars becomes its values joined by
 * {@code ", "} (as repeated HTTP headers are), nested structures inside arrays are skipped;
 * numbers keep their text; booleans are {@code true}/{@code false}; nulls are left out.
 *
 * <p>Hand-written rather than snakeyaml (which reads JSON too, but is several times slower: see
 * benchmarks/results/replay-reader.txt) or a JSON library (the agent shades none). Lenient where
 * logs are not quite JSON: nginx without {@code escape=json} writes {@code \xHH} in strings, which
 * is read as the byte HH. Strict elsewhere: a line that is not one object is refused, with the
 * column where reading stopped.
 *
 * <p>Reused line after line; names at the same position as in the previous line (JSON logs write
 * their keys in the same order every time) reuse that line's String, the same instance, so that a
 * caller may remember what a name means by identity. Values are valid until the next {@link
 * #read}, as they may point into the line's bytes.
 */
final class FlatJsonReader {

  private static final int MAX_DEPTH = 32;

  private byte[] b;
  private int p;
  private int end;
  private int lineStart;
  private String error;

  private String[] names = new String[32];
  // A value is the text in values[i], or, when that is null, the bytes b[valueStart, valueEnd)
  // (a string without escapes, a number), decoded only when asked for: most fields of a log line
  // are never looked at, and decoding them all would cost a third of the time.
  private String[] values = new String[32];
  private int[] valueStart = new int[32];
  private int[] valueEnd = new int[32];
  private int count;

  // The raw bytes and the String of the keys of the previous line, by position.
  private byte[][] keyBytes = new byte[32][];
  private String[] keyPrefixes = new String[32];
  private String[] keyStrings = new String[32];
  private int keyIndex;

  /** Reads {@code b[s, e)}; null when it is one JSON object, else why not. */
  String read(byte[] bytes, int s, int e) {
    b = bytes;
    p = s;
    lineStart = s;
    end = e;
    count = 0;
    keyIndex = 0;
    error = null;
    skipSpaces();
    if (p >= end || b[p] != '{') {
      return "not a JSON object";
    }
    if (!object("", 1)) {
      return error;
    }
    skipSpaces();
    if (p < end) {
      return fail("text after the JSON object");
    }
    return null;
  }

  int count() {
    return count;
  }

  String name(int i) {
    return names[i];
  }

  String value(int i) {
    String value = values[i];
    if (value == null) {
      value = new String(b, valueStart[i], valueEnd[i] - valueStart[i], StandardCharsets.UTF_8);
      values[i] = value;
    }
    return value;
  }

  /** Whether the value is empty or {@code -}, as logs write an absent value; without decoding it. */
  boolean isAbsent(int i) {
    if (values[i] != null) {
      return values[i].isEmpty() || values[i].equals("-");
    }
    int length = valueEnd[i] - valueStart[i];
    return length == 0 || (length == 1 && b[valueStart[i]] == '-');
  }

  /** The value of a field by its (dotted) name, or null. */
  String get(String name) {
    for (int i = 0; i < count; i++) {
      if (names[i].equals(name)) {
        return value(i);
      }
    }
    return null;
  }

  private String fail(String reason) {
    error = reason + " at column " + (p - lineStart + 1);
    return error;
  }

  /** At '{': reads the object's fields under {@code prefix} (null: skip them). */
  private boolean object(String prefix, int depth) {
    if (depth > MAX_DEPTH) {
      fail("JSON nested deeper than " + MAX_DEPTH);
      return false;
    }
    p++;
    skipSpaces();
    if (p < end && b[p] == '}') {
      p++;
      return true;
    }
    while (true) {
      skipSpaces();
      if (p >= end || b[p] != '"') {
        fail("expected a field name");
        return false;
      }
      String name = key(prefix);
      if (name == null && error != null) {
        return false;
      }
      skipSpaces();
      if (p >= end || b[p] != ':') {
        fail("expected ':'");
        return false;
      }
      p++;
      skipSpaces();
      if (!value(name, depth)) {
        return false;
      }
      skipSpaces();
      if (p < end && b[p] == ',') {
        p++;
      } else if (p < end && b[p] == '}') {
        p++;
        return true;
      } else {
        fail("expected ',' or '}'");
        return false;
      }
    }
  }

  /** A value; stored under {@code name} unless it is null (then read and dropped). */
  private boolean value(String name, int depth) {
    if (p >= end) {
      fail("expected a value");
      return false;
    }
    byte c = b[p];
    switch (c) {
      case '"': {
        int start = p + 1;
        int close = start;
        while (close < end && b[close] != '"' && b[close] != '\\') {
          close++;
        }
        if (close < end && b[close] == '"') { // no escapes: keep the range
          p = close + 1;
          putRange(name, start, close);
          return true;
        }
        String text = string();
        if (text == null) {
          return false;
        }
        put(name, text);
        return true;
      }
      case '{':
        return object(name == null ? null : name + ".", depth + 1);
      case '[':
        return array(name, depth + 1);
      case 't':
        return literal("true", name);
      case 'f':
        return literal("false", name);
      case 'n':
        return literal("null", null);
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          int start = p;
          while (p < end && (isDigit(b[p]) || b[p] == '-' || b[p] == '+' || b[p] == '.'
              || b[p] == 'e' || b[p] == 'E')) {
            p++;
          }
          putRange(name, start, p);
          return true;
        }
        fail("unexpected character '" + (char) (c & 0xFF) + "'");
        return false;
    }
  }

  /** At '[': scalars joined by ", " under {@code name}; objects and arrays inside are skipped. */
  private boolean array(String name, int depth) {
    if (depth > MAX_DEPTH) {
      fail("JSON nested deeper than " + MAX_DEPTH);
      return false;
    }
    p++;
    StringBuilder joined = null;
    skipSpaces();
    if (p < end && b[p] == ']') {
      p++;
      return true;
    }
    while (true) {
      skipSpaces();
      if (p >= end) {
        fail("unterminated array");
        return false;
      }
      byte c = b[p];
      if (c == '{' || c == '[') {
        if (!(c == '{' ? object(null, depth + 1) : array(null, depth + 1))) {
          return false;
        }
      } else {
        int before = count;
        if (!value(name == null ? null : "", depth)) {
          return false;
        }
        if (count > before) { // a scalar was stored: take it back into the joined value
          String element = value(count - 1);
          count--;
          if (joined == null) {
            joined = new StringBuilder(element);
          } else {
            joined.append(", ").append(element);
          }
        }
      }
      skipSpaces();
      if (p < end && b[p] == ',') {
        p++;
      } else if (p < end && b[p] == ']') {
        p++;
        if (name != null && joined != null) {
          put(name, joined.toString());
        }
        return true;
      } else {
        fail("expected ',' or ']'");
        return false;
      }
    }
  }

  private boolean literal(String word, String name) {
    int n = word.length();
    if (end - p < n) {
      fail("unexpected end");
      return false;
    }
    for (int i = 0; i < n; i++) {
      if (b[p + i] != word.charAt(i)) {
        fail("unexpected character '" + (char) (b[p] & 0xFF) + "'");
        return false;
      }
    }
    p += n;
    if (name != null) {
      put(name, word);
    }
    return true;
  }

  private void put(String name, String value) {
    if (name == null) {
      return;
    }
    grow();
    names[count] = name;
    values[count] = value;
    count++;
  }

  private void putRange(String name, int start, int end) {
    if (name == null) {
      return;
    }
    grow();
    names[count] = name;
    values[count] = null;
    valueStart[count] = start;
    valueEnd[count] = end;
    count++;
  }

  private void grow() {
    if (count == names.length) {
      names = Arrays.copyOf(names, count * 2);
      values = Arrays.copyOf(values, count * 2);
      valueStart = Arrays.copyOf(valueStart, count * 2);
      valueEnd = Arrays.copyOf(valueEnd, count * 2);
    }
  }

  /** A field name with its prefix; the previous line's String when the same. Null when skipped. */
  private String key(String prefix) {
    int start = p + 1;
    int close = start;
    boolean escapes = false;
    while (close < end && b[close] != '"') {
      if (b[close] == '\\') {
        escapes = true;
        close++;
      }
      close++;
    }
    if (close >= end) {
      fail("unterminated field name");
      return null;
    }
    if (prefix == null) {
      p = close + 1;
      return null;
    }
    if (escapes) {
      String raw = string();
      return raw == null ? null : prefix + raw;
    }
    p = close + 1;
    int i = keyIndex++;
    if (i < keyBytes.length && keyBytes[i] != null && prefix.equals(keyPrefixes[i])
        && Arrays.equals(b, start, close, keyBytes[i], 0, keyBytes[i].length)) {
      return keyStrings[i];
    }
    String name = prefix + new String(b, start, close - start, StandardCharsets.UTF_8);
    if (i >= keyBytes.length) {
      keyBytes = Arrays.copyOf(keyBytes, i * 2);
      keyPrefixes = Arrays.copyOf(keyPrefixes, i * 2);
      keyStrings = Arrays.copyOf(keyStrings, i * 2);
    }
    keyBytes[i] = Arrays.copyOfRange(b, start, close);
    keyPrefixes[i] = prefix;
    keyStrings[i] = name;
    return name;
  }

  /** At '"': the string's text, escapes undone; null (and an error) when unterminated. */
  private String string() {
    int start = p + 1;
    int i = start;
    while (i < end) {
      byte c = b[i];
      if (c == '"') {
        p = i + 1;
        return new String(b, start, i - start, StandardCharsets.UTF_8);
      }
      if (c == '\\') {
        return escapedString(start);
      }
      i++;
    }
    fail("unterminated string");
    return null;
  }

  private String escapedString(int start) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(64);
    int i = start;
    while (i < end) {
      byte c = b[i];
      if (c == '"') {
        p = i + 1;
        return new String(out.toByteArray(), StandardCharsets.UTF_8);
      }
      if (c != '\\') {
        out.write(c);
        i++;
        continue;
      }
      if (i + 1 >= end) {
        break;
      }
      byte e = b[i + 1];
      i += 2;
      switch (e) {
        case '"': out.write('"'); break;
        case '\\': out.write('\\'); break;
        case '/': out.write('/'); break;
        case 'b': out.write('\b'); break;
        case 'f': out.write('\f'); break;
        case 'n': out.write('\n'); break;
        case 'r': out.write('\r'); break;
        case 't': out.write('\t'); break;
        case 'x': { // nginx's escape=default: a byte
          int high = i < end ? Character.digit(b[i], 16) : -1;
          int low = i + 1 < end ? Character.digit(b[i + 1], 16) : -1;
          if (high < 0 || low < 0) {
            p = i;
            fail("bad \\x escape");
            return null;
          }
          out.write(high * 16 + low);
          i += 2;
          break;
        }
        case 'u': {
          int unit = hex4(i);
          if (unit < 0) {
            p = i;
            fail("bad \\u escape");
            return null;
          }
          i += 4;
          int codePoint = unit;
          if (Character.isHighSurrogate((char) unit) && i + 5 < end && b[i] == '\\'
              && b[i + 1] == 'u') {
            int low = hex4(i + 2);
            if (low >= 0 && Character.isLowSurrogate((char) low)) {
              codePoint = Character.toCodePoint((char) unit, (char) low);
              i += 6;
            }
          }
          if (Character.isSurrogate((char) codePoint) && codePoint <= 0xFFFF) {
            codePoint = 0xFFFD; // a lone surrogate
          }
          byte[] utf8 = new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8);
          out.write(utf8, 0, utf8.length);
          break;
        }
        default:
          p = i - 1;
          fail("bad escape '\\" + (char) (e & 0xFF) + "'");
          return null;
      }
    }
    p = end;
    fail("unterminated string");
    return null;
  }

  private int hex4(int at) {
    if (at + 4 > end) {
      return -1;
    }
    int value = 0;
    for (int k = at; k < at + 4; k++) {
      int digit = Character.digit(b[k], 16);
      if (digit < 0) {
        return -1;
      }
      value = value * 16 + digit;
    }
    return value;
  }

  private void skipSpaces() {
    while (p < end && (b[p] == ' ' || b[p] == '\t' || b[p] == '\r' || b[p] == '\n')) {
      p++;
    }
  }

  private static boolean isDigit(byte c) {
    return c >= '0' && c <= '9';
  }
}
