package io.tollgate.engine;

/** A key as the log shows it: short, whatever a client sent. Secrets are already hashed. */
final class KeyDisplay {

  private static final int MAX = 64;

  private KeyDisplay() {}

  /** The key quoted, as the log lines show it: {@code '203.0.113.7'}. */
  static String of(String key) {
    if (key == null) {
      return "-";
    }
    return '\'' + unquoted(key) + '\'';
  }

  /** The key shown by the same rules without the quotes, for the metrics that list keys. */
  static String unquoted(String key) {
    if (key == null) {
      return "-";
    }
    String shown = key.length() <= MAX ? key : key.substring(0, MAX) + "...";
    StringBuilder out = new StringBuilder(shown.length());
    for (int i = 0; i < shown.length(); i++) {
      char c = shown.charAt(i);
      out.append(c >= 0x20 && c < 0x7f ? c : '?');
    }
    return out.toString();
  }
}
