package io.tollgate.http;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The parts of the response to a refused request: {@code Retry-After}, {@code Cache-Control:
 * no-store} and a header naming the rule, whatever the body; and the default bodies, an RFC 9457
 * {@code application/problem+json} one for API clients and a small HTML page for browsers
 * ({@link RefusalBody} picks, or writes the operator's own).
 *
 * <p>The rule's name is in the body and the {@code Tollgate-Rule} header so that whoever
 * investigates a 429 can tell Tollgate's from a CDN's or an upstream's, and which rule it was.
 */
public final class RefusalResponse {

  public static final String CONTENT_TYPE = "application/problem+json";
  public static final String HTML_CONTENT_TYPE = "text/html; charset=utf-8";
  public static final String RULE_HEADER = "Tollgate-Rule";

  /**
   * The RateLimit draft's problem types: over a quota, and a server shedding load for a while (a
   * 503: the rule's status, an adaptive limit, or a backend that cannot be checked).
   */
  public static final String QUOTA_EXCEEDED =
      "https://iana.org/assignments/http-problem-types#quota-exceeded";
  public static final String TEMPORARY_REDUCED_CAPACITY =
      "https://iana.org/assignments/http-problem-types#temporary-reduced-capacity";

  private RefusalResponse() {}

  /** The same on every refusal; the exchanges only read the headers they are given. */
  private static final String[] NO_STORE = {"Cache-Control", "no-store"};

  /**
   * {@code Retry-After} headers of the first seconds, made when first needed: under a flood every
   * refusal of a second sends the same one. No lock: a racing thread makes an equal header; the
   * atomic array publishes each header whole (a plain one would not promise its elements).
   */
  private static final AtomicReferenceArray<String[]> RETRY_AFTER =
      new AtomicReferenceArray<>(3_601);

  public static final String RETRY_AFTER_HEADER = "Retry-After";

  /** Adds the refusal's own headers (quota headers are added separately). */
  public static void addHeaders(List<String[]> out, String ruleName, long retryAfterSeconds) {
    out.add(retryAfterHeader(retryAfterSeconds));
    out.add(NO_STORE);
    out.add(new String[] {RULE_HEADER, ruleName});
  }

  /**
   * Puts the refusal's own three headers, names and values alternating, into {@code out} from
   * {@code at} on: {@code Retry-After}, {@code Cache-Control: no-store}, {@code Tollgate-Rule}.
   */
  static void putHeaders(String[] out, int at, String ruleName, long retryAfterSeconds) {
    out[at] = RETRY_AFTER_HEADER;
    out[at + 1] = retryAfterHeader(retryAfterSeconds)[1];
    out[at + 2] = NO_STORE[0];
    out[at + 3] = NO_STORE[1];
    out[at + 4] = RULE_HEADER;
    out[at + 5] = ruleName;
  }

  private static String[] retryAfterHeader(long seconds) {
    if (seconds < 0 || seconds >= RETRY_AFTER.length()) {
      return new String[] {"Retry-After", Long.toString(seconds)};
    }
    String[] header = RETRY_AFTER.get((int) seconds);
    if (header == null) {
      header = new String[] {"Retry-After", Long.toString(seconds)};
      RETRY_AFTER.set((int) seconds, header);
    }
    return header;
  }

  /** The draft's problem type for a refusal with this status. */
  public static String problemType(int status) {
    return status == 503 ? TEMPORARY_REDUCED_CAPACITY : QUOTA_EXCEEDED;
  }

  /** At least one second: {@code Retry-After: 0} makes clients retry at once. */
  public static long retryAfterSeconds(long retryAfterNanos) {
    return Math.max(1, RateLimitHeaders.ceilSeconds(retryAfterNanos));
  }

  /**
   * The RFC 9457 body for API clients: the RateLimit draft's problem type, {@code quota-exceeded}
   * or for a 503 {@code temporary-reduced-capacity}, with its {@code violated-policies} (the
   * refusing rule, by the name its {@code RateLimit-Policy} item has), and Tollgate's own {@code
   * rule} and {@code retryAfter}. The title is the status's reason phrase, as in the draft's own
   * example of a throttled response; the detail says whether a limit or an outage refused.
   */
  public static byte[] body(
      int status, boolean backendUnavailable, String ruleName, long retryAfterSeconds) {
    StringBuilder json = new StringBuilder(300);
    json.append("{\"type\":");
    appendJson(json, problemType(status));
    json.append(",\"title\":");
    appendJson(json, title(status));
    json.append(",\"status\":").append(status);
    json.append(",\"detail\":");
    appendJson(json, detail(backendUnavailable, ruleName, retryAfterSeconds));
    json.append(",\"violated-policies\":[");
    appendJson(json, ruleName);
    json.append("],\"rule\":");
    appendJson(json, ruleName);
    json.append(",\"retryAfter\":").append(retryAfterSeconds);
    json.append("}\n");
    return json.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The body a browser gets: a small page that needs nothing else (no styles, scripts or images
   * to load from a server that is refusing requests).
   */
  public static byte[] htmlPage(
      int status, boolean backendUnavailable, String ruleName, long retryAfterSeconds) {
    StringBuilder html = new StringBuilder(400);
    String title = status + " " + title(status);
    html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>");
    HtmlText.append(html, title);
    html.append("</title></head>\n<body>\n<h1>");
    HtmlText.append(html, title);
    html.append("</h1>\n<p>");
    HtmlText.append(html, backendUnavailable
        ? "The service cannot check its rate limits right now, so it refuses requests."
        : "You have sent too many requests.");
    html.append(" Please try again in ");
    html.append(retryAfterSeconds == 1 ? "1 second" : retryAfterSeconds + " seconds");
    html.append(".</p>\n<p><small>Rule: <code>");
    HtmlText.append(html, ruleName);
    html.append("</code></small></p>\n</body>\n</html>\n");
    return html.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Whether the default body should be the HTML page: {@code Accept} lists {@code text/html} (with
   * a q above 0) and names no JSON type ({@code application/json}, {@code
   * application/problem+json} or any {@code +json}). Browsers send the first and never the
   * second; {@code *}{@code /*} alone, or no {@code Accept} at all, gets problem+json.
   */
  public static boolean prefersHtml(List<String> acceptLines) {
    String accept = acceptLines.size() == 1 ? acceptLines.get(0) : null;
    if (accept != null) {
      // the usual case, one Accept line: answered once per value (PrefersHtmlCache)
      Boolean known = PrefersHtmlCache.find(accept);
      return known != null ? known : PrefersHtmlCache.keep(accept, parse(acceptLines));
    }
    return parse(acceptLines);
  }

  private static boolean parse(List<String> acceptLines) {
    boolean html = false;
    for (String line : acceptLines) {
      for (String range : line.split(",")) {
        String[] params = range.split(";");
        String type = params[0].trim().toLowerCase(Locale.ROOT);
        if (type.equals("application/json") || type.endsWith("+json")) {
          return false;
        }
        if (type.equals("text/html") && !refusedByQuality(params)) {
          html = true;
        }
      }
    }
    return html;
  }

  /** {@code q=0} (or 0.0, 0.000) means "not acceptable". */
  private static boolean refusedByQuality(String[] params) {
    for (int i = 1; i < params.length; i++) {
      String p = params[i].trim().toLowerCase(Locale.ROOT);
      if (p.startsWith("q=")) {
        return p.substring(2).trim().matches("0(\\.0{0,3})?");
      }
    }
    return false;
  }

  static String title(int status) {
    switch (status) {
      case 429:
        return "Too Many Requests";
      case 503:
        return "Service Unavailable";
      case 400:
        return "Bad Request";
      case 403:
        return "Forbidden";
      case 404:
        return "Not Found";
      case 408:
        return "Request Timeout";
      case 409:
        return "Conflict";
      case 423:
        return "Locked";
      case 500:
        return "Internal Server Error";
      case 502:
        return "Bad Gateway";
      case 504:
        return "Gateway Timeout";
      default:
        return status < 500 ? "Client Error" : "Server Error";
    }
  }

  static String detail(boolean backendUnavailable, String ruleName, long retryAfterSeconds) {
    String wait = retryAfterSeconds == 1 ? "1 second." : retryAfterSeconds + " seconds.";
    return backendUnavailable
        ? "The rate limiter's backend is unavailable and rule '" + ruleName
            + "' refuses requests while it is; retry after " + wait
        : "Rate limit '" + ruleName + "' exceeded; retry after " + wait;
  }

  private static void appendJson(StringBuilder out, String value) {
    out.append('"');
    appendJsonContent(out, value);
    out.append('"');
  }

  /** {@code value} escaped for the inside of a JSON string (the quotes are the caller's). */
  static void appendJsonContent(StringBuilder out, String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"':
          out.append("\\\"");
          break;
        case '\\':
          out.append("\\\\");
          break;
        default:
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
      }
    }
  }
}
