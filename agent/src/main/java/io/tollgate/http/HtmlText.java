package io.tollgate.http;

/**
 * Text made safe inside HTML and SVG, as element content or a quoted attribute: the refusal's HTML
 * page and the replay's report write whatever a client may have chosen (a rule's placeholders, a
 * logged key or path) through it.
 */
public final class HtmlText {

  private HtmlText() {}

  /** {@code text} escaped as {@link #append} escapes it; empty for null. */
  public static String escape(String text) {
    if (text == null) {
      return "";
    }
    StringBuilder out = new StringBuilder(text.length() + 16);
    append(out, text);
    return out.toString();
  }

  /**
   * Appends {@code text} with {@code & < > " '} as character references and other control
   * characters as {@code ?}.
   */
  public static void append(StringBuilder out, String text) {
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
  }
}
