package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A burst of calls that an outbound test app ({@code outbound-client}, {@code
 * outbound-libraries}) made with one client on request, and what they ended with: the count of each
 * status and of each exception class, as the app's {@code /burst} answers them in JSON.
 */
final class Burst {

  private static final Pattern COUNT = Pattern.compile("\"([^\"]+)\":(\\d+)");

  private final String json;

  private Burst(String json) {
    this.json = json;
  }

  /** Asks {@code app} for {@code calls} calls to {@code url} at {@code perSecond} with {@code client}. */
  static Burst of(ForkedApp app, String client, String url, int calls, int perSecond)
      throws Exception {
    HttpResponse<String> answer = app.get("/burst?client=" + client + "&calls=" + calls
        + "&per-second=" + perSecond + "&url=" + URLEncoder.encode(url, StandardCharsets.UTF_8));
    assertEquals(200, answer.statusCode(), answer.body());
    return new Burst(answer.body());
  }

  /** How many calls ended with this status ({@code "200"}) or exception class; 0 when none. */
  int count(String statusOrException) {
    Matcher m = COUNT.matcher(json);
    while (m.find()) {
      if (m.group(1).equals(statusOrException)) {
        return Integer.parseInt(m.group(2));
      }
    }
    return 0;
  }

  /** The app's answer, as it was. */
  String json() {
    return json;
  }

  @Override
  public String toString() {
    return json;
  }
}
