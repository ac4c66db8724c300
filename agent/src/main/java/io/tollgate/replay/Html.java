package io.tollgate.replay;

/** Text made safe inside HTML and SVG, as element content or a quoted attribute. */
final class Html {

  private Html() {}

  /**
   * {@code text} with {@code & < > " '} as character references and other control characters
   * as {@code ?}: logs are written by whoever sends requests, keys and paths included.
   */
  static String escape(String text) {
    if (text == null) {
      return "";
    }
    StringBuilder out = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&':
          out.append("&amp;");
          break;
        case '<':
          out.append("&lt;");
          break;
        case '>':
          out.append("&gt;");
          break;
        case '"':
          out.append("&quot;");
          break;
        case '\'':
          out.append("&#39;");
          break;
        default:
          out.append(c < 0x20 || c == 0x7f ? '?' : c);
      }
    }
    return out.toString();
  }
}
