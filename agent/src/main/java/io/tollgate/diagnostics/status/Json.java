package io.tollgate.diagnostics.status;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON the status snapshot needs, both ways: written by the agent, read by the
 * {@code status} command, written again by {@code status --json}. No dependency: the agent adds
 * none. Objects read as {@link LinkedHashMap} (members in order), arrays as {@link List}, numbers
 * as {@link Long} or {@link Double}, and {@code true}, {@code false}, {@code null} as themselves.
 */
final class Json {

  private Json() {}

  /** {@code value} as JSON: a map, a list, a string, a number, a boolean or null. */
  static String write(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out);
    return out.toString();
  }

  private static void write(Object value, StringBuilder out) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String) {
      quote((String) value, out);
    } else if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      // Rates are shown to a tenth; NaN and infinities are not JSON.
      out.append(Double.isFinite(d) ? Double.toString(Math.round(d * 10) / 10.0) : "null");
    } else if (value instanceof Number || value instanceof Boolean) {
      out.append(value);
    } else if (value instanceof Map) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        quote(String.valueOf(e.getKey()), out);
        out.append(':');
        write(e.getValue(), out);
      }
      out.append('}');
    } else if (value instanceof List) {
      out.append('[');
      boolean first = true;
      for (Object item : (List<?>) value) {
        if (!first) {
          out.append(',');
        }
        first = false;
        write(item, out);
      }
      out.append(']');
    } else {
      quote(value.toString(), out);
    }
  }

  private static void quote(String s, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"':
          out.append("\\\"");
          break;
        case '\\':
          out.append("\\\\");
          break;
        case '\n':
          out.append("\\n");
          break;
        case '\r':
          out.append("\\r");
          break;
        case '\t':
          out.append("\\t");
          break;
        default:
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
      }
    }
    out.append('"');
  }

  /** Parses one JSON value; IllegalArgumentException with the offset when it is not JSON. */
  static Object read(String text) {
    Reader reader = new Reader(text);
    Object value = reader.value();
    reader.skipSpace();
    if (reader.at < text.length()) {
      throw reader.problem("text after the value");
    }
    return value;
  }

  private static final class Reader {
    final String s;
    int at;

    Reader(String s) {
      this.s = s;
    }

    Object value() {
      skipSpace();
      if (at >= s.length()) {
        throw problem("the text ends where a value should be");
      }
      char c = s.charAt(at);
      switch (c) {
        case '{':
          return object();
        case '[':
          return array();
        case '"':
          return string();
        case 't':
          return word("true", Boolean.TRUE);
        case 'f':
          return word("false", Boolean.FALSE);
        case 'n':
          return word("null", null);
        default:
          return number();
      }
    }

    Map<String, Object> object() {
      Map<String, Object> map = new LinkedHashMap<>();
      at++;
      skipSpace();
      if (peek() == '}') {
        at++;
        return map;
      }
      while (true) {
        skipSpace();
        if (peek() != '"') {
          throw problem("a member name should be here");
        }
        String name = string();
        skipSpace();
        expect(':');
        map.put(name, value());
        skipSpace();
        if (peek() == ',') {
          at++;
        } else {
          expect('}');
          return map;
        }
      }
    }

    List<Object> array() {
      List<Object> list = new ArrayList<>();
      at++;
      skipSpace();
      if (peek() == ']') {
        at++;
        return list;
      }
      while (true) {
        list.add(value());
        skipSpace();
        if (peek() == ',') {
          at++;
        } else {
          expect(']');
          return list;
        }
      }
    }

    String string() {
      StringBuilder out = new StringBuilder();
      at++;
      while (at < s.length()) {
        char c = s.charAt(at++);
        if (c == '"') {
          return out.toString();
        }
        if (c != '\\') {
          out.append(c);
          continue;
        }
        if (at >= s.length()) {
          break;
        }
        char e = s.charAt(at++);
        switch (e) {
          case 'n':
            out.append('\n');
            break;
          case 'r':
            out.append('\r');
            break;
          case 't':
            out.append('\t');
            break;
          case 'b':
            out.append('\b');
            break;
          case 'f':
            out.append('\f');
            break;
          case 'u':
            if (at + 4 > s.length()) {
              throw problem("a \\u escape is cut short");
            }
            out.append((char) Integer.parseInt(s.substring(at, at + 4), 16));
            at += 4;
            break;
          default:
            out.append(e);
        }
      }
      throw problem("a string is not closed");
    }

    Object word(String word, Object value) {
      if (!s.startsWith(word, at)) {
        throw problem("unexpected text");
      }
      at += word.length();
      return value;
    }

    Object number() {
      int start = at;
      while (at < s.length() && "+-0123456789.eE".indexOf(s.charAt(at)) >= 0) {
        at++;
      }
      String text = s.substring(start, at);
      try {
        if (text.indexOf('.') < 0 && text.indexOf('e') < 0 && text.indexOf('E') < 0) {
          return Long.parseLong(text);
        }
        return Double.parseDouble(text);
      } catch (NumberFormatException e) {
        at = start;
        throw problem("unexpected text");
      }
    }

    char peek() {
      return at < s.length() ? s.charAt(at) : '\0';
    }

    void expect(char c) {
      if (peek() != c) {
        throw problem("'" + c + "' should be here");
      }
      at++;
    }

    void skipSpace() {
      while (at < s.length() && Character.isWhitespace(s.charAt(at))) {
        at++;
      }
    }

    IllegalArgumentException problem(String what) {
      return new IllegalArgumentException("not JSON at offset " + at + ": " + what);
    }
  }
}
