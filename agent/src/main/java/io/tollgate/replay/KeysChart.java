package io.tollgate.replay;

import io.tollgate.http.HtmlText;
import java.util.Locale;

/**
 * How many keys sent how many requests, as an inline SVG: for each bucket of {@link
 * KeyHistogram} (1, 2-3, 4-7... requests), a bar of its keys (blue) and one of those refused
 * (red), on a logarithmic scale of keys, from the fewest requests any key sent to the most.
 */
final class KeysChart {

  static final int WIDTH = 1000;
  static final int HEIGHT = 220;
  private static final int LEFT = 60;
  private static final int RIGHT = 10;
  private static final int TOP = 10;
  private static final int BOTTOM = 40;

  private KeysChart() {}

  static String svg(String id, KeyHistogram histogram) {
    int lowest = Math.max(0, histogram.lowest());
    int buckets = Math.max(1, histogram.highest() + 1 - lowest);
    long most = 1;
    for (int b = lowest; b < lowest + buckets; b++) {
      most = Math.max(most, histogram.keys[b]);
    }
    // decades from 1 to the first power of ten at or above the most keys in a bucket
    int decades = Math.max(1, (int) Math.ceil(Math.log10(most + 0.5)));
    int plotWidth = WIDTH - LEFT - RIGHT;
    int plotHeight = HEIGHT - TOP - BOTTOM;
    double slot = (double) plotWidth / buckets;
    StringBuilder svg = new StringBuilder(2048 + buckets * 300);
    svg.append(String.format(Locale.ROOT,
        "<svg id=\"%s\" class=\"chart keys\" xmlns=\"http://www.w3.org/2000/svg\""
            + " width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">",
        HtmlText.escape(id), WIDTH, HEIGHT, WIDTH, HEIGHT));
    svg.append("<title>Keys by requests sent (log scale): all keys and keys refused</title>");
    for (int d = 0; d <= decades; d++) {
      double y = TOP + plotHeight - plotHeight * scaled(pow10(d), decades);
      svg.append(String.format(Locale.ROOT,
          "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" class=\"grid\"/>"
              + "<text x=\"%d\" y=\"%.1f\" class=\"axis\" text-anchor=\"end\">%s</text>",
          LEFT, y, WIDTH - RIGHT, y, LEFT - 6, y + 4, Figures.count(pow10(d))));
    }
    for (int i = 0; i < buckets; i++) {
      int b = lowest + i;
      double x = LEFT + i * slot;
      double barWidth = Math.max(1, Math.min(36, slot * 0.4));
      double middle = x + slot / 2;
      bar(svg, middle - barWidth, barWidth, histogram.keys[b], decades, plotHeight, "allowed");
      bar(svg, middle, barWidth, histogram.refusedKeys[b], decades, plotHeight, "refused");
      if (buckets <= 24 || i % 2 == 0) {
        svg.append(String.format(Locale.ROOT,
            "<text x=\"%.1f\" y=\"%d\" class=\"axis\" text-anchor=\"middle\">%s</text>",
            x + slot / 2, HEIGHT - BOTTOM + 16, KeyHistogram.label(b)));
      }
    }
    svg.append(String.format(Locale.ROOT,
        "<text x=\"%d\" y=\"%d\" class=\"axis\" text-anchor=\"middle\">requests per key</text>",
        LEFT + plotWidth / 2, HEIGHT - 4));
    svg.append("</svg>");
    return svg.toString();
  }

  /** A bar of {@code count} keys: 1 key is a sliver, each decade a step up. */
  private static void bar(
      StringBuilder svg, double x, double width, long count, int decades, int plotHeight,
      String cssClass) {
    if (count <= 0) {
      return;
    }
    double height = Math.max(2, plotHeight * scaled(count, decades));
    svg.append(String.format(Locale.ROOT,
        "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" class=\"%s\"><title>%s</title></rect>",
        x, TOP + plotHeight - height, width, height, cssClass, Figures.count(count)));
  }

  /**
   * Where {@code count} keys stand on the axis, from 0 to 1: logarithmic from half a key (so that
   * one key is a bar, not nothing) to {@code 10^decades}.
   */
  static double scaled(long count, int decades) {
    return Math.log10(2.0 * count) / Math.log10(2.0 * pow10(decades));
  }

  private static long pow10(int d) {
    long v = 1;
    for (int i = 0; i < d; i++) {
      v *= 10;
    }
    return v;
  }
}
