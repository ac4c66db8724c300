package io.tollgate.replay.log;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * The requests of one or more access-log files, merged into one time-ordered stream: the {@link
 * AccessLogReader} that {@code replay} reads.
 *
 * <pre>{@code
 * try (AccessLogFiles logs = AccessLogFiles.open(paths, new LogReadOptions())) {
 *   for (LoggedRequest r; (r = logs.next()) != null; ) { ... }
 *   logs.problems().count();   // lines that were not requests, and the first few
 * }
 * }</pre>
 *
 * <p>Each file is read in time order on its own (a reorder window puts back the lines that servers
 * write slightly out of order, see {@link LogReadOptions#reorderWindowMillis}), then the files are
 * merged k-way by time, ties going to the file named first: several servers' logs of the same
 * hours, or a day's rotated files ({@code access.log.2.gz access.log.1 access.log}) in any order.
 * Every file is open at once, each with a buffer of 64 KB or its longest line.
 *
 * <p>A path {@code -} is standard input ({@code zcat access.log.*.gz | ... replay rules.yaml -}),
 * whose size is unknown: {@link #totalBytes()} is then 0 and a progress bar shows only counts.
 *
 * <p>Each file may be plain or gzip (recognised by its bytes) and has its own format, recognised
 * from its first lines unless {@link LogReadOptions#format} names one. Not thread-safe: one
 * thread reads.
 */
public final class AccessLogFiles implements AccessLogReader {

  private final List<LogFileReader> files;
  private final UnparsedLines problems;
  private final long totalBytes;
  // Each file's next request, ordered by time then by the file's position in the list.
  private final PriorityQueue<Head> heads =
      new PriorityQueue<>((a, b) -> a.request.epochMillis != b.request.epochMillis
          ? Long.compare(a.request.epochMillis, b.request.epochMillis)
          : Integer.compare(a.file, b.file));
  private boolean started;

  private static final class Head {
    final int file;
    LoggedRequest request;

    Head(int file, LoggedRequest request) {
      this.file = file;
      this.request = request;
    }
  }

  private AccessLogFiles(List<LogFileReader> files, UnparsedLines problems) {
    this.files = files;
    this.problems = problems;
    long total = 0;
    for (LogFileReader file : files) {
      if (!file.sizeKnown()) {
        total = 0; // a stream of unknown length: no total, rather than a wrong one
        break;
      }
      total += file.totalBytes();
    }
    this.totalBytes = total;
  }

  /**
   * Opens the files (none read yet beyond their first 64 KB, to recognise the format).
   *
   * @throws IOException when a file cannot be opened (missing, unreadable, compressed with
   *     something other than gzip); the others are then closed
   */
  public static AccessLogFiles open(List<Path> paths, LogReadOptions options) throws IOException {
    if (paths.isEmpty()) {
      throw new IllegalArgumentException("no log file to read");
    }
    UnparsedLines problems = new UnparsedLines();
    List<LogFileReader> files = new ArrayList<>(paths.size());
    try {
      for (Path path : paths) {
        files.add(new LogFileReader(path, options, paths.size(), problems));
      }
    } catch (IOException | RuntimeException e) {
      for (LogFileReader file : files) {
        try {
          file.close();
        } catch (IOException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw e;
    }
    return new AccessLogFiles(files, problems);
  }

  /** Opens the files with the default options. */
  public static AccessLogFiles open(Path... paths) throws IOException {
    return open(Arrays.asList(paths), new LogReadOptions());
  }

  @Override
  public LoggedRequest next() throws IOException {
    if (files.size() == 1) {
      return files.get(0).next();
    }
    if (!started) {
      started = true;
      for (int i = 0; i < files.size(); i++) {
        LoggedRequest first = files.get(i).next();
        if (first != null) {
          heads.add(new Head(i, first));
        }
      }
    }
    Head head = heads.poll();
    if (head == null) {
      return null;
    }
    LoggedRequest request = head.request;
    head.request = files.get(head.file).next();
    if (head.request != null) {
      heads.add(head);
    }
    return request;
  }

  @Override
  public UnparsedLines problems() {
    return problems;
  }

  @Override
  public long bytesRead() {
    long read = 0;
    for (LogFileReader file : files) {
      read += file.bytesRead();
    }
    return read;
  }

  /** The files' total size, or 0 when one of them is standard input (unknown). */
  @Override
  public long totalBytes() {
    return totalBytes;
  }

  /** Each file's format, by its name as given: named by the options, or recognised. */
  public Map<String, LogFormat> formats() {
    Map<String, LogFormat> formats = new LinkedHashMap<>();
    for (LogFileReader file : files) {
      formats.put(file.source(), file.format());
    }
    return formats;
  }

  /**
   * Requests whose line came later than the reorder window allowed: they were given the time of
   * the request before them (the replay's clock never goes backwards). Worth a line in the report
   * when not zero: a longer window would place them.
   */
  public long lateRequests() {
    long late = 0;
    for (LogFileReader file : files) {
      late += file.late();
    }
    return late;
  }

  /**
   * Requests released from a reorder buffer before their window had passed, because it held its
   * most requests or bytes ({@link LogReadOptions#reorderMaxRequests}): a burst of the log. They
   * are replayed in the order read from there on; a line of theirs that comes later with an
   * older time is then one of the {@link #lateRequests}.
   */
  public long releasedEarly() {
    long early = 0;
    for (LogFileReader file : files) {
      early += file.releasedEarly();
    }
    return early;
  }

  @Override
  public void close() throws IOException {
    IOException first = null;
    for (LogFileReader file : files) {
      try {
        file.close();
      } catch (IOException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
