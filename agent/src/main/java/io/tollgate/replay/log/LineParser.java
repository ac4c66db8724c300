package io.tollgate.replay.log;

/**
 * Reads one log line, given as bytes, into a request. Parsers work on the bytes as read, without
 * first decoding the line into a String: most of a line is skipped or kept only in part, and
 * decoding it whole would cost as much as the parsing.
 *
 * <p>A line that is not a request is never an exception: {@link #parse} returns null and {@link
 * #whyNot} says why, for {@link UnparsedLines}. A parser keeps state between lines (caches) and is
 * used by one thread.
 */
interface LineParser {

  /**
   * The request on {@code line[start, end)} (no line terminator), or null when the line is not one.
   */
  LoggedRequest parse(byte[] line, int start, int end, String source, long lineNumber);

  /** Why the last {@link #parse} returned null. */
  String whyNot();
}
