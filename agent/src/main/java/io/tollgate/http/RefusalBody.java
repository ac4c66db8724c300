package io.tollgate.http;

import io.tollgate.limiters.QuotaPolicy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The refusal an operator configured with {@code response:}: the status of a refusal over the
 * limit, and a body template with its content type. Without a template the body is negotiated
 * ({@link #message}).
 *
 * <p>The template was checked when the rules were loaded; here it is only filled in, each value
 * escaped for the content type: HTML and XML bodies get {@code &<>"'} as entities, JSON bodies
 * JSON string escapes (the template writes the quotes), anything else the value as it is.
 */
public final class RefusalBody {

  /** No {@code response:}: 429 and the negotiated body. */
  public static final RefusalBody DEFAULT = new RefusalBody(null, null, null);

  private final Integer status;
  /** Literal text at even indexes, placeholder names at odd ones; null without a body. */
  private final List<String> parts;
  private final String contentType;
  private final Escaping escaping;
  /** The bodies already written, so that a flood of refusals does not build them again. */
  private final RefusalBodyCache bodies = new RefusalBodyCache();
  /** The whole refusals already answered, for the same reason. */
  private final RefusalMessages messages = new RefusalMessages();

  /**
   * @param status the status over the limit, or null for 429
   * @param parts the parsed template (literal, name, literal, ...), or null for the default body
   * @param contentType the template's content type (ignored without a template)
   */
  public RefusalBody(Integer status, List<String> parts, String contentType) {
    this.status = status;
    this.parts = parts == null ? null : Collections.unmodifiableList(new ArrayList<>(parts));
    this.contentType = parts == null ? null : contentType;
    this.escaping = Escaping.of(this.contentType);
  }

  /**
   * The status of a refusal: the configured one over the limit (429 by default); always 503 when
   * the shared backend is unreachable and the rule denies, so that an outage never looks like
   * clients sending too much.
   */
  public int status(boolean backendUnavailable) {
    if (backendUnavailable) {
      return 503;
    }
    return status == null ? 429 : status;
  }

  /** Whether the operator wrote a body; otherwise the body is negotiated from {@code Accept}. */
  public boolean hasTemplate() {
    return parts != null;
  }

  public String contentType() {
    return contentType;
  }

  /**
   * The whole refusal, for the module to write with its own API: {@code quota} (its first {@code
   * quotaLength} entries, names and values alternating) and the refusal's own headers ({@link
   * RefusalResponse#RETRY_AFTER_HEADER}, {@code Cache-Control}, {@link RefusalResponse#RULE_HEADER}),
   * and the configured body, else the HTML page when {@code html} (a browser's {@code Accept},
   * {@link RefusalResponse#prefersHtml}) and problem+json for everyone else. The same key gives
   * the same value, kept ({@link RefusalMessages}) so that a flood's refusals allocate nothing;
   * each body is built once per rule, {@code Retry-After}, kind and status ({@link
   * RefusalBodyCache}): the same bytes as building it again, without the work.
   */
  public RefusalMessage message(
      boolean backendUnavailable,
      String ruleName,
      long retryAfterSeconds,
      QuotaPolicy policy,
      boolean html,
      String[] quota,
      int quotaLength) {
    int kind = parts != null
        ? RefusalBodyCache.TEMPLATE
        : html ? RefusalBodyCache.HTML : RefusalBodyCache.PROBLEM_JSON;
    QuotaPolicy bodyPolicy = parts != null ? policy : null;
    RefusalMessage kept = messages.find(
        kind, backendUnavailable, ruleName, retryAfterSeconds, bodyPolicy, quota, quotaLength);
    if (kept != null) {
      return kept;
    }
    int s = status(backendUnavailable);
    byte[] body;
    String type;
    if (kind == RefusalBodyCache.TEMPLATE) {
      type = contentType;
      body = templateBody(backendUnavailable, ruleName, retryAfterSeconds, policy);
    } else if (kind == RefusalBodyCache.HTML) {
      type = RefusalResponse.HTML_CONTENT_TYPE;
      body = htmlBody(s, backendUnavailable, ruleName, retryAfterSeconds);
    } else {
      type = RefusalResponse.CONTENT_TYPE;
      body = problemBody(s, backendUnavailable, ruleName, retryAfterSeconds);
    }
    String[] headers = new String[quotaLength + 6];
    System.arraycopy(quota, 0, headers, 0, quotaLength);
    RefusalResponse.putHeaders(headers, quotaLength, ruleName, retryAfterSeconds);
    return messages.keep(kind, backendUnavailable, ruleName, retryAfterSeconds, bodyPolicy,
        new RefusalMessage(s, headers, type, body));
  }

  private byte[] templateBody(
      boolean outage, String ruleName, long retryAfterSeconds, QuotaPolicy policy) {
    int kind = RefusalBodyCache.TEMPLATE;
    byte[] body = bodies.find(kind, outage, ruleName, retryAfterSeconds, policy);
    return body != null ? body : bodies.keep(kind, outage, ruleName, retryAfterSeconds, policy,
        render(ruleName, retryAfterSeconds, policy));
  }

  private byte[] htmlBody(int status, boolean outage, String ruleName, long retryAfterSeconds) {
    int kind = RefusalBodyCache.HTML;
    byte[] body = bodies.find(kind, outage, ruleName, retryAfterSeconds, null);
    return body != null ? body : bodies.keep(kind, outage, ruleName, retryAfterSeconds, null,
        RefusalResponse.htmlPage(status, outage, ruleName, retryAfterSeconds));
  }

  private byte[] problemBody(int status, boolean outage, String ruleName, long retryAfterSeconds) {
    int kind = RefusalBodyCache.PROBLEM_JSON;
    byte[] body = bodies.find(kind, outage, ruleName, retryAfterSeconds, null);
    return body != null ? body : bodies.keep(kind, outage, ruleName, retryAfterSeconds, null,
        RefusalResponse.body(status, outage, ruleName, retryAfterSeconds));
  }

  /** The template filled in for the rule (or budget) {@code ruleName} of {@code policy}. */
  public byte[] render(String ruleName, long retryAfterSeconds, QuotaPolicy policy) {
    StringBuilder out = new StringBuilder(256);
    for (int i = 0; i < parts.size(); i++) {
      String part = parts.get(i);
      if (i % 2 == 0) {
        out.append(part);
      } else {
        escaping.append(out, value(part, ruleName, retryAfterSeconds, policy));
      }
    }
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static String value(String name, String rule, long retryAfter, QuotaPolicy policy) {
    switch (name) {
      case "rule":
        return rule;
      case "retryAfter":
        return Long.toString(retryAfter);
      case "limit":
        return policy == null ? "" : Long.toString(policy.quota());
      case "period":
        return policy == null ? "" : period(policy.windowSeconds());
      default:
        // the parser admits only the names above
        throw new IllegalStateException("unknown placeholder {" + name + "}");
    }
  }

  /** A window in the largest whole unit, as the rules file writes durations: 1m, 90s, 1d. */
  static String period(long seconds) {
    if (seconds % 86_400 == 0) {
      return seconds / 86_400 + "d";
    }
    if (seconds % 3_600 == 0) {
      return seconds / 3_600 + "h";
    }
    if (seconds % 60 == 0) {
      return seconds / 60 + "m";
    }
    return seconds + "s";
  }

  /** How values are written into a body of one content type. */
  enum Escaping {
    HTML {
      @Override
      void append(StringBuilder out, String value) {
        HtmlText.append(out, value);
      }
    },
    JSON {
      @Override
      void append(StringBuilder out, String value) {
        RefusalResponse.appendJsonContent(out, value);
      }
    },
    NONE {
      @Override
      void append(StringBuilder out, String value) {
        out.append(value);
      }
    };

    abstract void append(StringBuilder out, String value);

    static Escaping of(String contentType) {
      if (contentType == null) {
        return NONE;
      }
      String type = contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
      if (type.endsWith("/html") || type.endsWith("/xml") || type.endsWith("+xml")) {
        return HTML;
      }
      if (type.endsWith("/json") || type.endsWith("+json")) {
        return JSON;
      }
      return NONE;
    }
  }
}
