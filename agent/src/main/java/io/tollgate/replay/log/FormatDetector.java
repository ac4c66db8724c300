package io.tollgate.replay.log;

/**
 * Recognises a log's format from its first lines, for {@code replay} without {@code --format}: a
 * line that starts with <code>{</code> is JSON, one the NCSA parser reads is NCSA ({@code
 * combined} when it has a referer or user agent, else {@code common}). The first ten non-empty
 * lines vote, so that a garbage first line does not decide; with no vote at all the answer is
 * {@code combined}, and the lines show up as unparsed with the reason.
 */
final class FormatDetector {

  private static final int LINES_LOOKED_AT = 10;

  private FormatDetector() {}

  static LogFormat detect(byte[] b, int start, int end) {
    NcsaLineParser ncsa = new NcsaLineParser();
    int json = 0;
    int common = 0;
    int combined = 0;
    int lines = 0;
    int p = start;
    while (p < end && lines < LINES_LOOKED_AT) {
      int newline = NcsaLineParser.indexOf(b, p, end, (byte) '\n');
      int lineEnd = newline < 0 ? end : newline;
      int s = p;
      while (s < lineEnd && (b[s] == ' ' || b[s] == '\t' || b[s] == '\r')) {
        s++;
      }
      int e = lineEnd;
      while (e > s && (b[e - 1] == '\r' || b[e - 1] == ' ')) {
        e--;
      }
      if (s < e) {
        lines++;
        if (b[s] == '{') {
          json++;
        } else {
          LoggedRequest request = ncsa.parse(b, s, e, "", lines);
          if (request != null) {
            if (request.headers.containsKey("referer") || request.headers.containsKey("user-agent")) {
              combined++;
            } else {
              common++;
            }
          }
        }
      }
      if (newline < 0) {
        break;
      }
      p = newline + 1;
    }
    if (json > common + combined) {
      return LogFormat.JSON;
    }
    return common > combined ? LogFormat.COMMON : LogFormat.COMBINED;
  }
}
