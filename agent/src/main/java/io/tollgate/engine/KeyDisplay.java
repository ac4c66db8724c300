package io.tollgate.engine;

/** A key as the log shows it: short, whatever a client sent. Secrets are already hashed. */
final class KeyDisplay {

  private static final int MAX = 64;

  private KeyDisplay() {}

  static String of(String key) {
    if (key == null) {
      return "-";
    }
    String shown = key.length() <= MAX ? key : key.substring(0, MAX) + "...";
    StringBuilder out = new StringBuilder(shown.length() + 2).append('\'');
    for (int i = 0; i < shown.length(); i++) {
      char c = shown.charAt(i);
      out.append(c >= 0x20 && c < 0x7f ? c : '?');
    }
    return out.append('\'').toString();
  }
}
