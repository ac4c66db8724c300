package io.tollgate.config;

import static io.tollgate.config.YamlNodes.describe;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;

/**
 * A {@code response:} section (top level or in a rule): {@code status}, a {@code body} template
 * and its {@code content-type}. The template is checked here, at load, so that a typo in a
 * placeholder is a line in {@code validate}'s output and not a broken page in production.
 */
final class ResponseParser {

  static final List<String> RESPONSE_KEYS = Arrays.asList("status", "body", "content-type");
  /** What a body may say; the values are filled in when a request is refused. */
  static final List<String> PLACEHOLDERS = Arrays.asList("rule", "retryAfter", "limit", "period");
  /** A refusal body is a short message, not a page of the application. */
  static final int MAX_BODY_CHARS = 8192;
  static final String DEFAULT_CONTENT_TYPE = "text/plain; charset=utf-8";

  /** type/subtype with optional parameters, in RFC 9110 tokens; no line breaks. */
  private static final Pattern MEDIA_TYPE =
      Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+/[!#$%&'*+.^_`|~0-9A-Za-z-]+"
          + "(\\s*;\\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+=(\"[^\"\\p{Cntrl}]*\"|[!#$%&'*+.^_`|~0-9A-Za-z-]+))*");

  private static final String EXAMPLE =
      "a mapping such as { status: 503, body: \"busy: {rule}, retry in {retryAfter}s\", content-type: text/plain }";

  private final YamlNodes y;

  ResponseParser(YamlNodes y) {
    this.y = y;
  }

  /** The section of {@code tuple}; null (with problems reported) when it is wrong. */
  ResponseConfig parse(NodeTuple tuple, String ctx) {
    Node node = tuple.getValueNode();
    if (!(node instanceof MappingNode)) {
      y.problem(node, ctx + "response must be " + EXAMPLE + ", got " + describe(node));
      return null;
    }
    String where = ctx.isEmpty() ? "in response" : "in response of " + ctx.substring(0, ctx.length() - 2);
    Map<String, NodeTuple> f = y.fields((MappingNode) node, RESPONSE_KEYS, where, "response.");
    int before = y.problemCount();
    Integer status = null;
    if (f.get("status") != null) {
      Long s = y.integer(f.get("status").getValueNode(), "response.status",
          "an error status from 400 to 599 (such as 429 or 503)", 400, 599, ctx);
      status = s == null ? null : s.intValue();
    }
    String template = null;
    List<String> parts = null;
    if (f.get("body") != null) {
      Node body = f.get("body").getValueNode();
      template = y.string(body, "response.body", "a text such as \"busy: {rule}, retry in {retryAfter}s\"", ctx);
      if (template != null) {
        parts = template(template, body, ctx);
      }
    }
    String contentType = null;
    NodeTuple ct = f.get("content-type");
    if (ct != null) {
      contentType = contentType(ct.getValueNode(), ctx);
      if (f.get("body") == null) {
        y.problem(ct.getKeyNode(), ctx + "response.content-type is the type of response.body, and there is no body; add a body or remove content-type");
      }
    } else if (parts != null) {
      contentType = DEFAULT_CONTENT_TYPE;
    }
    if (f.isEmpty() && y.problemCount() == before && ((MappingNode) node).getValue().isEmpty()) {
      y.problem(node, ctx + "response is empty; write " + EXAMPLE);
    }
    return y.problemCount() > before ? null : new ResponseConfig(status, template, parts, contentType);
  }

  private String contentType(Node node, String ctx) {
    String v = y.string(node, "response.content-type", "a media type such as text/plain or application/json", ctx);
    if (v == null) {
      return null;
    }
    v = v.trim();
    if (!MEDIA_TYPE.matcher(v).matches()) {
      y.problem(node, ctx + "response.content-type must be a media type such as text/plain, text/html or application/json (with optional parameters such as '; charset=utf-8'), got " + describe(node));
      return null;
    }
    return v;
  }

  /**
   * The template as literal text and placeholder names, alternating; null when it is wrong.
   * {@code {{} and {@code }}} write literal braces, so that a JSON body can be written.
   */
  private List<String> template(String text, Node node, String ctx) {
    if (text.length() > MAX_BODY_CHARS) {
      y.problem(node, ctx + "response.body has " + text.length() + " characters; a refusal body may have at most " + MAX_BODY_CHARS);
      return null;
    }
    List<String> parts = new ArrayList<>();
    StringBuilder literal = new StringBuilder();
    boolean ok = true;
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if ((c == '{' || c == '}') && i + 1 < text.length() && text.charAt(i + 1) == c) {
        literal.append(c);
        i += 2;
      } else if (c == '}') {
        y.problem(node, ctx + "response.body has a '}' that closes no placeholder (at character " + (i + 1) + "); write }} for a literal brace");
        return null;
      } else if (c == '{') {
        int end = text.indexOf('}', i + 1);
        int nextOpen = text.indexOf('{', i + 1);
        if (end < 0 || (nextOpen >= 0 && nextOpen < end)) {
          y.problem(node, ctx + "response.body has a '{' that is not closed by '}' (at character " + (i + 1) + "); write a placeholder such as {rule}, or {{ for a literal brace");
          return null;
        }
        String name = text.substring(i + 1, end);
        if (!PLACEHOLDERS.contains(name)) {
          String hint = Suggestions.closest(name, PLACEHOLDERS);
          y.problem(node, ctx + "response.body has an unknown placeholder '{" + name + "}'"
              + (hint != null ? "; did you mean '{" + hint + "}'?" : "")
              + " (placeholders: {rule}, {retryAfter}, {limit}, {period}; write {{ and }} for literal braces)");
          ok = false;
        }
        parts.add(literal.toString());
        parts.add(name);
        literal.setLength(0);
        i = end + 1;
      } else {
        literal.append(c);
        i++;
      }
    }
    parts.add(literal.toString());
    return ok ? parts : null;
  }
}
