package io.tollgate.replay;

import java.util.ArrayList;
import java.util.List;

/**
 * Rows of cells printed in aligned columns: text columns to the left, number columns (those given
 * as right-aligned) to the right, two spaces apart.
 */
final class TextTable {

  private final boolean[] rightAligned;
  private final List<String[]> rows = new ArrayList<>();

  /** {@code alignment}: one character per column, {@code l} or {@code r}. */
  TextTable(String alignment, String... header) {
    rightAligned = new boolean[alignment.length()];
    for (int i = 0; i < rightAligned.length; i++) {
      rightAligned[i] = alignment.charAt(i) == 'r';
    }
    if (header.length > 0) {
      rows.add(header);
    }
  }

  TextTable row(String... cells) {
    rows.add(cells);
    return this;
  }

  /** The table, each line starting with {@code indent} and ending with a line separator. */
  String format(String indent) {
    int[] widths = new int[rightAligned.length];
    for (String[] row : rows) {
      for (int c = 0; c < row.length && c < widths.length; c++) {
        widths[c] = Math.max(widths[c], row[c].length());
      }
    }
    StringBuilder out = new StringBuilder();
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder(indent);
      for (int c = 0; c < row.length && c < widths.length; c++) {
        if (c > 0) {
          line.append("  ");
        }
        String cell = row[c];
        int pad = widths[c] - cell.length();
        if (rightAligned[c]) {
          repeat(line, pad);
          line.append(cell);
        } else {
          line.append(cell);
          if (c < row.length - 1) {
            repeat(line, pad);
          }
        }
      }
      out.append(stripTrailing(line)).append(System.lineSeparator());
    }
    return out.toString();
  }

  private static void repeat(StringBuilder line, int n) {
    for (int i = 0; i < n; i++) {
      line.append(' ');
    }
  }

  private static String stripTrailing(StringBuilder line) {
    int end = line.length();
    while (end > 0 && line.charAt(end - 1) == ' ') {
      end--;
    }
    return line.substring(0, end);
  }
}
