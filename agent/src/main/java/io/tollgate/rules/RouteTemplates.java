package io.tollgate.rules;

/**
 * Route templates in one canonical spelling, so that a rule's {@code match.route} and what Spring
 * or Jersey report compare equal: {@code /api/orders/{id: [0-9]+}/} and {@code api//orders/{id}}
 * are both {@code /api/orders/{id}}.
 */
public final class RouteTemplates {

  private RouteTemplates() {}

  /** The canonical form: leading slash, no doubled or trailing slash, no regex in variables. */
  public static String normalize(String template) {
    if (template == null) {
      return null;
    }
    StringBuilder out = new StringBuilder(template.length() + 1);
    int depth = 0;
    boolean skippingRegex = false;
    for (int i = 0; i < template.length(); i++) {
      char c = template.charAt(i);
      if (c == '{') {
        depth++;
        if (depth == 1) {
          skippingRegex = false;
          out.append(c);
          continue;
        }
      } else if (c == '}') {
        depth = Math.max(0, depth - 1);
        if (depth == 0) {
          skippingRegex = false;
          out.append(c);
          continue;
        }
      }
      if (depth >= 1) {
        if (c == ':' && depth == 1) {
          skippingRegex = true;
        }
        if (skippingRegex || depth > 1 || c == ' ') {
          continue;
        }
        out.append(c);
        continue;
      }
      if (c == '/' && out.length() > 0 && out.charAt(out.length() - 1) == '/') {
        continue;
      }
      out.append(c);
    }
    if (out.length() == 0 || out.charAt(0) != '/') {
      out.insert(0, '/');
    }
    if (out.length() > 1 && out.charAt(out.length() - 1) == '/') {
      out.setLength(out.length() - 1);
    }
    return out.toString();
  }
}
