package io.tollgate.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.replay.log.LoggedRequest;
import io.tollgate.replay.log.UnparsedLines;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** The HTML report: self-contained, and safe whatever the log holds. */
class HtmlReportTest {

  private static final String EVIL = "<script>alert('x')</script>\"&<img src=x onerror=y>";

  private static ReplayReport evilReport() throws Exception {
    List<LoggedRequest> requests = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      requests.add(new LoggedRequest(TrafficShapes.T0 + i, "203.0.113.9", "GET", "/search",
          "user=" + java.net.URLEncoder.encode(EVIL, "UTF-8"), 200, null,
          Collections.<String, String>emptyMap(), "a.log", i + 1));
    }
    Replay replay = Replay.of(Replays.rules(
        "rules:",
        "  - {name: by-user, match: {path: /search}, key: 'param:user', limit: 1, period: 1m}"),
        1000);
    for (LoggedRequest r : requests) {
      replay.replay(r);
    }
    UnparsedLines unparsed = new UnparsedLines();
    unparsed.add("a.log", 7, "no request line", EVIL);
    return replay.report(10, unparsed);
  }

  @Test
  void everyStringFromTheLogIsEscaped() throws Exception {
    String html = HtmlReport.of(evilReport());
    assertFalse(html.toLowerCase(Locale.ROOT).contains("<script"), html);
    assertFalse(html.contains("<img"), html);
    assertTrue(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;&amp;"), html);
  }

  @Test
  void thePageLoadsNothingFromAnywhere() throws Exception {
    String html = HtmlReport.of(Replays.replay(Replays.rules(
        "rules:",
        "  - {name: r, match: {path: /**}, key: ip, algorithm: fixed-window, limit: 120, period: 1m}"),
        TrafficShapes.traffic().scraper("/catalog", 3).requests()));
    String lower = html.toLowerCase(Locale.ROOT);
    assertFalse(lower.contains("src="), html);
    assertFalse(lower.contains("href="), html);
    assertFalse(lower.contains("@import"), html);
    assertFalse(lower.contains("url("), html);
    // the only address is the SVG namespace, which loads nothing
    assertEquals(lower.split("http", -1).length - 1,
        lower.split("xmlns=\"http://www.w3.org/2000/svg\"", -1).length - 1);
    assertTrue(html.contains("id=\"timeline-0\"") && html.contains("id=\"keys-0\""), html);
  }

  @Test
  void theTimelineStacksRefusedOnAllowedPerMinute() {
    MinuteTimeline timeline = new MinuteTimeline();
    long m0 = TrafficShapes.T0;
    timeline.add(m0, false);
    timeline.add(m0 + 1, true);
    timeline.add(m0 + 120_000, false);
    String svg = TimelineChart.svg("t", timeline, m0 / 60_000, m0 / 60_000 + 2);
    assertEquals(2, count(svg, "class=\"allowed\""));
    assertEquals(1, count(svg, "class=\"refused\""));
  }

  @Test
  void aLongLogHasBarsOfSeveralMinutes() {
    assertEquals(1, TimelineChart.minutesPerBar(0, TimelineChart.MAX_BARS - 1));
    assertEquals(2, TimelineChart.minutesPerBar(0, TimelineChart.MAX_BARS));
    assertEquals(21, TimelineChart.minutesPerBar(0, 7 * 24 * 60 - 1)); // a week
  }

  private static int count(String s, String part) {
    return s.split(java.util.regex.Pattern.quote(part), -1).length - 1;
  }
}
