package io.tollgate.replay;

/** Reads one cookie from a logged {@code Cookie} header ({@code a=1; b=2}), or null. */
final class Cookies {

  private Cookies() {}

  static String value(String cookieHeader, String name) {
    if (cookieHeader == null) {
      return null;
    }
    for (String pair : cookieHeader.split(";")) {
      int equals = pair.indexOf('=');
      if (equals > 0 && pair.substring(0, equals).trim().equals(name)) {
        String value = pair.substring(equals + 1).trim();
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
          value = value.substring(1, value.length() - 1);
        }
        return value;
      }
    }
    return null;
  }
}
