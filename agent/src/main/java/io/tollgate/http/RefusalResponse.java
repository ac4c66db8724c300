package io.tollgate.http;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The complete response to a refused request: {@code 429} (or {@code 503} when the backend is down
 * and the rule says deny), {@code Retry-After}, {@code Cache-Control: no-store}, a header naming
 * the rule, and an RFC 9457 {@code application/problem+json} body.
 *
 * <p>The rule's name is in the body and the {@code Tollgate-Rule} header so that whoever
 * investigates a 429 can tell Tollgate's from a CDN's or an upstream's, and which rule it was.
 */
public final class RefusalResponse {

  public static final String CONTENT_TYPE = "application/problem+json";
  public static final String RULE_HEADER = "Tollgate-Rule";

  private RefusalResponse() {}

  /** Adds the refusal's own headers (quota headers are added separately). */
  public static void addHeaders(List<String[]> out, String ruleName, long retryAfterSeconds) {
    out.add(new String[] {"Retry-After", Long.toString(retryAfterSeconds)});
    out.add(new String[] {"Cache-Control", "no-store"});
    out.add(new String[] {RULE_HEADER, ruleName});
  }

  /** At least one second: {@code Retry-After: 0} makes clients retry at once. */
  public static long retryAfterSeconds(long retryAfterNanos) {
    return Math.max(1, RateLimitHeaders.ceilSeconds(retryAfterNanos));
  }

  public static byte[] body(int status, String ruleName, long retryAfterSeconds) {
    String title = status == 503 ? "Service Unavailable" : "Too Many Requests";
    String wait = retryAfterSeconds == 1 ? "1 second." : retryAfterSeconds + " seconds.";
    String detail =
        status == 503
            ? "The rate limiter's backend is unavailable and rule '" + ruleName
                + "' refuses requests while it is; retry after " + wait
            : "Rate limit '" + ruleName + "' exceeded; retry after " + wait;
    StringBuilder json = new StringBuilder(200);
    json.append("{\"type\":\"about:blank\",\"title\":");
    appendJson(json, title);
    json.append(",\"status\":").append(status);
    json.append(",\"detail\":");
    appendJson(json, detail);
    json.append(",\"rule\":");
    appendJson(json, ruleName);
    json.append(",\"retryAfter\":").append(retryAfterSeconds);
    json.append("}\n");
    return json.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void appendJson(StringBuilder out, String value) {
    out.append('"');
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
    out.append('"');
  }
}
