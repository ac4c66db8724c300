package io.tollgate.replay;

import io.tollgate.http.HtmlText;
import java.util.Locale;

/**
 * A rule's requests over the log's time as an inline SVG: stacked bars of allowed (blue) and
 * would-refuse (red) requests per minute, or per several minutes when the log spans more minutes
 * than the chart has room for bars ({@link #MAX_BARS}); every rule's chart spans the whole log.
 */
final class TimelineChart {

  static final int MAX_BARS = 480;
  static final int WIDTH = 1000;
  static final int HEIGHT = 220;
  private static final int LEFT = 60;
  private static final int RIGHT = 10;
  private static final int TOP = 10;
  private static final int BOTTOM = 30;

  private TimelineChart() {}

  /** How many minutes each bar counts for a log from {@code firstMinute} to {@code lastMinute}. */
  static long minutesPerBar(long firstMinute, long lastMinute) {
    long span = lastMinute - firstMinute + 1;
    return Math.max(1, (span + MAX_BARS - 1) / MAX_BARS);
  }

  static String svg(String id, MinuteTimeline timeline, long firstMinute, long lastMinute) {
    long perBar = minutesPerBar(firstMinute, lastMinute);
    int bars = (int) ((lastMinute - firstMinute) / perBar + 1);
    long[] allowed = new long[bars];
    long[] refused = new long[bars];
    for (int i = 0; i < timeline.size(); i++) {
      long m = timeline.minute(i);
      if (m < firstMinute || m > lastMinute) {
        continue;
      }
      int bar = (int) ((m - firstMinute) / perBar);
      allowed[bar] += timeline.allowed(i);
      refused[bar] += timeline.refused(i);
    }
    long max = 1;
    for (int b = 0; b < bars; b++) {
      max = Math.max(max, allowed[b] + refused[b]);
    }
    int plotWidth = WIDTH - LEFT - RIGHT;
    int plotHeight = HEIGHT - TOP - BOTTOM;
    double barWidth = (double) plotWidth / bars;
    StringBuilder svg = new StringBuilder(4096 + bars * 160);
    svg.append(String.format(Locale.ROOT,
        "<svg id=\"%s\" class=\"chart timeline\" xmlns=\"http://www.w3.org/2000/svg\""
            + " width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">",
        HtmlText.escape(id), WIDTH, HEIGHT, WIDTH, HEIGHT));
    svg.append(String.format(Locale.ROOT,
        "<title>Requests per %s: allowed and would refuse</title>", per(perBar)));
    // axes and gridlines at 0, half and the top
    for (int g = 0; g <= 2; g++) {
      double y = TOP + plotHeight - plotHeight * g / 2.0;
      svg.append(String.format(Locale.ROOT,
          "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" class=\"grid\"/>"
              + "<text x=\"%d\" y=\"%.1f\" class=\"axis\" text-anchor=\"end\">%s</text>",
          LEFT, y, WIDTH - RIGHT, y, LEFT - 6, y + 4, Figures.count(max * g / 2)));
    }
    for (int b = 0; b < bars; b++) {
      double x = LEFT + b * barWidth;
      double w = Math.max(1, barWidth - (barWidth > 3 ? 1 : 0));
      double hAllowed = plotHeight * (double) allowed[b] / max;
      double hRefused = plotHeight * (double) refused[b] / max;
      double base = TOP + plotHeight;
      if (allowed[b] > 0) {
        svg.append(String.format(Locale.ROOT,
            "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" class=\"allowed\"/>",
            x, base - hAllowed, w, Math.max(0.5, hAllowed)));
      }
      if (refused[b] > 0) {
        svg.append(String.format(Locale.ROOT,
            "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" class=\"refused\"/>",
            x, base - hAllowed - hRefused, w, Math.max(0.5, hRefused)));
      }
    }
    // time labels: start, middle, end
    for (int t = 0; t <= 2; t++) {
      long minute = firstMinute + (lastMinute - firstMinute) * t / 2;
      double x = LEFT + plotWidth * t / 2.0;
      String anchor = t == 0 ? "start" : t == 1 ? "middle" : "end";
      svg.append(String.format(Locale.ROOT,
          "<text x=\"%.1f\" y=\"%d\" class=\"axis\" text-anchor=\"%s\">%s UTC</text>",
          x, HEIGHT - 8, anchor, Figures.minute(minute)));
    }
    svg.append("</svg>");
    return svg.toString();
  }

  /** {@code minute}, {@code 5 minutes}. */
  static String per(long minutesPerBar) {
    return minutesPerBar == 1 ? "minute" : minutesPerBar + " minutes";
  }
}
