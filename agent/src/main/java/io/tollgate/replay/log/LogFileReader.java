package io.tollgate.replay.log;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The requests of one log file, in time order (through a {@link ReorderBuffer}). Lines that are
 * not requests go to the shared {@link UnparsedLines}; blank lines are skipped without a word. A
 * gzip file that ends early or is damaged ends there, with one more entry in UnparsedLines that
 * says so: the requests before the damage are worth replaying.
 */
final class LogFileReader implements Closeable {

  private static final int DETECTION_BYTES = 1 << 16;

  private final String source;
  private final InputStream in;
  private final CountingInputStream counter;
  private final long totalBytes;
  private final LineSplitter lines;
  private final LogFormat format;
  private final boolean formatDetected;
  private final LineParser parser;
  private final ReorderBuffer reorder;
  private final UnparsedLines problems;
  private boolean endOfFile;

  LogFileReader(Path file, LogReadOptions options, UnparsedLines problems) throws IOException {
    this(file, options, 1, problems);
  }

  /** One of {@code files} files read together: its reorder buffer is its part of the bounds. */
  LogFileReader(Path file, LogReadOptions options, int files, UnparsedLines problems)
      throws IOException {
    this.source = LogFileInput.isStandardInput(file) ? "(standard input)" : file.toString();
    this.problems = problems;
    // Standard input has no size: 0, which makes the total unknown (see AccessLogFiles).
    this.totalBytes = LogFileInput.isStandardInput(file) ? 0 : Files.size(file);
    CountingInputStream[] counted = new CountingInputStream[1];
    this.in = LogFileInput.open(file, counted);
    this.counter = counted[0];
    try {
      this.lines = new LineSplitter(in, options.maxLineBytes());
      lines.skipByteOrderMark();
      if (options.format() != null) {
        this.format = options.format();
        this.formatDetected = false;
      } else {
        int available = lines.readAhead(DETECTION_BYTES);
        this.format =
            FormatDetector.detect(lines.buffer(), lines.peekStart(), lines.peekStart() + available);
        this.formatDetected = true;
      }
      this.parser =
          format == LogFormat.JSON ? new JsonLineParser(options.jsonFields()) : new NcsaLineParser();
      int parts = Math.max(1, files);
      this.reorder = new ReorderBuffer(options.reorderWindowMillis(),
          Math.max(1_000, options.reorderMaxRequests() / parts),
          Math.max(1L << 20, options.reorderMaxBytes() / parts));
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }

  /** The next request in time order, or null at the end of the file. */
  LoggedRequest next() throws IOException {
    while (true) {
      LoggedRequest ready = endOfFile ? reorder.drain() : reorder.poll();
      if (ready != null || endOfFile) {
        return ready;
      }
      if (!lines.next()) {
        endOfFile = true;
        if (lines.damage() != null) {
          problems.add(source, lines.lineNumber() + 1, lines.damage(), "");
        }
        continue;
      }
      byte[] b = lines.buffer();
      int start = lines.lineStart();
      int end = lines.lineEnd();
      if (lines.truncated()) {
        problems.add(source, lines.lineNumber(),
            "line longer than " + lines.maxLineBytes() + " bytes", text(b, start, end));
        continue;
      }
      if (isBlank(b, start, end)) {
        continue;
      }
      LoggedRequest request = parser.parse(b, start, end, source, lines.lineNumber());
      if (request == null) {
        problems.add(source, lines.lineNumber(), parser.whyNot(), text(b, start, end));
        continue;
      }
      reorder.add(request);
    }
  }

  private static boolean isBlank(byte[] b, int start, int end) {
    for (int i = start; i < end; i++) {
      if (b[i] != ' ' && b[i] != '\t' && b[i] != '\r') {
        return false;
      }
    }
    return true;
  }

  /** At most the first 300 bytes of a line as text, for a message (UnparsedLines cuts to 200). */
  private static String text(byte[] b, int start, int end) {
    return new String(b, start, Math.min(end - start, 300), StandardCharsets.UTF_8);
  }

  String source() {
    return source;
  }

  LogFormat format() {
    return format;
  }

  boolean formatDetected() {
    return formatDetected;
  }

  long bytesRead() {
    return counter.count();
  }

  long totalBytes() {
    return totalBytes;
  }

  boolean sizeKnown() {
    return !source.equals("(standard input)");
  }

  long late() {
    return reorder.late();
  }

  long releasedEarly() {
    return reorder.releasedEarly();
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
