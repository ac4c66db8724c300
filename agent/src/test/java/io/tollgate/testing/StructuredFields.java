package io.tollgate.testing;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict parser of RFC 9651 (Structured Field Values for HTTP) Lists, as a client of the RateLimit
 * headers would parse them: the tests read Tollgate's headers through it rather than by string
 * comparison, so that a header a real client would reject (a stray space, an upper-case key, a
 * number too long) fails the test even where the digits look right.
 *
 * <p>Lists of Items and Inner Lists with Parameters; bare items: Integer, Decimal, String, Token,
 * Byte Sequence and Boolean (Dates and Display Strings are not used by the draft). Written from
 * RFC 9651 section 4.2; a malformed field throws {@link IllegalArgumentException}.
 */
public final class StructuredFields {

  /** An sf-token, kept apart from an sf-string. */
  public static final class Token {
    public final String value;

    Token(String value) {
      this.value = value;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Token && ((Token) o).value.equals(value);
    }

    @Override
    public int hashCode() {
      return value.hashCode();
    }

    @Override
    public String toString() {
      return value;
    }
  }

  /** An Item (or an Inner List, whose value is a {@code List<Item>}) with its parameters. */
  public static final class Item {
    public final Object value;
    public final Map<String, Object> params;

    Item(Object value, Map<String, Object> params) {
      this.value = value;
      this.params = Collections.unmodifiableMap(params);
    }

    /** An Integer parameter; fails when it is missing or of another type. */
    public long integer(String key) {
      Object v = params.get(key);
      if (!(v instanceof Long)) {
        throw new AssertionError("parameter " + key + " is not an Integer: " + v + " in " + this);
      }
      return (Long) v;
    }

    /** The item's value as an sf-string; fails when it is of another type. */
    public String string() {
      if (!(value instanceof String)) {
        throw new AssertionError("not an sf-string: " + value);
      }
      return (String) value;
    }

    @Override
    public String toString() {
      return value + ";" + params;
    }
  }

  private final String input;
  private int pos;

  private StructuredFields(String input) {
    this.input = input;
  }

  /**
   * Parses the field lines of one List field (several lines are joined with a comma, RFC 9651
   * section 4.2).
   */
  public static List<Item> parseList(List<String> fieldLines) {
    return parseList(String.join(",", fieldLines));
  }

  /** Parses a List field value. */
  public static List<Item> parseList(String fieldValue) {
    StructuredFields p = new StructuredFields(fieldValue);
    p.skipSp();
    List<Item> members = new ArrayList<>();
    while (!p.atEnd()) {
      members.add(p.peek() == '(' ? p.innerList() : p.item());
      p.skipOws();
      if (p.atEnd()) {
        break;
      }
      p.expect(',');
      p.skipOws();
      if (p.atEnd()) {
        throw p.fail("a trailing comma");
      }
    }
    p.skipSp();
    return members;
  }

  private Item innerList() {
    expect('(');
    List<Item> items = new ArrayList<>();
    while (true) {
      skipSp();
      if (atEnd()) {
        throw fail("an unclosed inner list");
      }
      if (peek() == ')') {
        pos++;
        return new Item(items, parameters());
      }
      items.add(item());
      if (!atEnd() && peek() != ' ' && peek() != ')') {
        throw fail("an inner list item not followed by a space or ')'");
      }
    }
  }

  private Item item() {
    Object bare = bareItem();
    return new Item(bare, parameters());
  }

  private Map<String, Object> parameters() {
    Map<String, Object> params = new LinkedHashMap<>();
    while (!atEnd() && peek() == ';') {
      pos++;
      skipSp();
      String key = key();
      Object value = Boolean.TRUE;
      if (!atEnd() && peek() == '=') {
        pos++;
        value = bareItem();
      }
      params.put(key, value); // a later duplicate overrides, as the RFC says
    }
    return params;
  }

  private String key() {
    if (atEnd() || !(isLcAlpha(peek()) || peek() == '*')) {
      throw fail("a key that does not start with a lower-case letter or '*'");
    }
    int start = pos;
    while (!atEnd()) {
      char c = peek();
      if (isLcAlpha(c) || isDigit(c) || c == '_' || c == '-' || c == '.' || c == '*') {
        pos++;
      } else {
        break;
      }
    }
    return input.substring(start, pos);
  }

  private Object bareItem() {
    if (atEnd()) {
      throw fail("a missing value");
    }
    char c = peek();
    if (c == '-' || isDigit(c)) {
      return number();
    }
    if (c == '"') {
      return string();
    }
    if (c == '*' || isAlpha(c)) {
      return token();
    }
    if (c == ':') {
      return byteSequence();
    }
    if (c == '?') {
      pos++;
      if (atEnd() || (peek() != '0' && peek() != '1')) {
        throw fail("a boolean other than ?0 or ?1");
      }
      return input.charAt(pos++) == '1';
    }
    throw fail("an unknown item type");
  }

  private Object number() {
    int start = pos;
    if (peek() == '-') {
      pos++;
    }
    if (atEnd() || !isDigit(peek())) {
      throw fail("a sign without digits");
    }
    int digitsStart = pos;
    boolean decimal = false;
    while (!atEnd()) {
      char c = peek();
      if (isDigit(c)) {
        pos++;
      } else if (c == '.' && !decimal) {
        if (pos - digitsStart > 12) {
          throw fail("a decimal with more than 12 integer digits");
        }
        decimal = true;
        pos++;
      } else {
        break;
      }
      if (!decimal && pos - digitsStart > 15) {
        throw fail("an integer of more than 15 digits");
      }
      if (decimal && pos - digitsStart > 16) {
        throw fail("a decimal of more than 16 characters");
      }
    }
    String text = input.substring(start, pos);
    if (!decimal) {
      return Long.parseLong(text);
    }
    if (text.endsWith(".")) {
      throw fail("a decimal ending in '.'");
    }
    if (text.length() - text.indexOf('.') - 1 > 3) {
      throw fail("a decimal with more than 3 fraction digits");
    }
    return new BigDecimal(text);
  }

  private String string() {
    pos++;
    StringBuilder out = new StringBuilder();
    while (!atEnd()) {
      char c = input.charAt(pos++);
      if (c == '\\') {
        if (atEnd() || (peek() != '"' && peek() != '\\')) {
          throw fail("a backslash not before '\"' or '\\'");
        }
        out.append(input.charAt(pos++));
      } else if (c == '"') {
        return out.toString();
      } else if (c < 0x20 || c > 0x7e) {
        throw fail("a character outside printable ASCII in a string");
      } else {
        out.append(c);
      }
    }
    throw fail("an unclosed string");
  }

  private Token token() {
    int start = pos;
    pos++;
    while (!atEnd()) {
      char c = peek();
      if (isTchar(c) || c == ':' || c == '/') {
        pos++;
      } else {
        break;
      }
    }
    return new Token(input.substring(start, pos));
  }

  private byte[] byteSequence() {
    pos++;
    int end = input.indexOf(':', pos);
    if (end < 0) {
      throw fail("an unclosed byte sequence");
    }
    String b64 = input.substring(pos, end);
    for (char c : b64.toCharArray()) {
      if (!(isAlpha(c) || isDigit(c) || c == '+' || c == '/' || c == '=')) {
        throw fail("a character outside base64 in a byte sequence");
      }
    }
    pos = end + 1;
    try {
      return Base64.getDecoder().decode(b64);
    } catch (IllegalArgumentException e) {
      throw fail("a byte sequence that is not base64");
    }
  }

  private void expect(char c) {
    if (atEnd() || peek() != c) {
      throw fail("'" + c + "' expected");
    }
    pos++;
  }

  private void skipSp() {
    while (!atEnd() && peek() == ' ') {
      pos++;
    }
  }

  private void skipOws() {
    while (!atEnd() && (peek() == ' ' || peek() == '\t')) {
      pos++;
    }
  }

  private boolean atEnd() {
    return pos >= input.length();
  }

  private char peek() {
    return input.charAt(pos);
  }

  private IllegalArgumentException fail(String what) {
    return new IllegalArgumentException(
        "not an RFC 9651 List: " + what + " at " + pos + " in '" + input + "'");
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isLcAlpha(char c) {
    return c >= 'a' && c <= 'z';
  }

  private static boolean isAlpha(char c) {
    return isLcAlpha(c) || (c >= 'A' && c <= 'Z');
  }

  private static boolean isTchar(char c) {
    return isAlpha(c) || isDigit(c) || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
  }
}
