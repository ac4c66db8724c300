package io.tollgate.replay.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AccessLogFilesTest {

  @TempDir Path dir;

  /** A combined line at second {@code s} after 2026-01-01T00:00:00Z for {@code path}. */
  private static String line(int s, String path) {
    return String.format("192.0.2.1 - - [01/Jan/2026:00:%02d:%02d +0000] \"GET %s HTTP/1.1\" 200 5"
        + " \"-\" \"UA\"", s / 60, s % 60, path);
  }

  private Path write(String name, String... lines) throws IOException {
    Path file = dir.resolve(name);
    Files.write(file, (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    return file;
  }

  private Path writeBytes(String name, byte[] bytes) throws IOException {
    Path file = dir.resolve(name);
    Files.write(file, bytes);
    return file;
  }

  private static byte[] gzip(String text) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OutputStream out = new GZIPOutputStream(bytes)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
    return bytes.toByteArray();
  }

  private static List<LoggedRequest> readAll(AccessLogReader reader) throws IOException {
    List<LoggedRequest> all = new ArrayList<>();
    for (LoggedRequest r; (r = reader.next()) != null; ) {
      all.add(r);
    }
    return all;
  }

  private static List<String> paths(List<LoggedRequest> requests) {
    List<String> paths = new ArrayList<>();
    for (LoggedRequest r : requests) {
      paths.add(r.path);
    }
    return paths;
  }

  private static long at(int second) {
    return Instant.parse("2026-01-01T00:00:00Z").toEpochMilli() + second * 1000L;
  }

  @Test
  void readsAPlainFileToTheEndAndCountsItsBytes() throws IOException {
    Path file = write("access.log", line(0, "/a"), line(1, "/b"), line(2, "/c"));
    try (AccessLogFiles logs = AccessLogFiles.open(file)) {
      assertEquals(Files.size(file), logs.totalBytes());
      List<LoggedRequest> all = readAll(logs);
      assertEquals(Arrays.asList("/a", "/b", "/c"), paths(all));
      assertEquals(at(2), all.get(2).epochMillis);
      assertEquals(3, all.get(2).lineNumber);
      assertEquals(file.toString(), all.get(2).source);
      assertEquals(Files.size(file), logs.bytesRead());
      assertEquals(0, logs.problems().count());
      assertNull(logs.next(), "stays at the end");
      assertEquals(Map.of(file.toString(), LogFormat.COMBINED), logs.formats());
    }
  }

  @Test
  void gzipIsRecognisedByItsBytesWhateverTheName() throws IOException {
    String text = line(0, "/a") + "\n" + line(1, "/b") + "\n";
    Path named = writeBytes("access.log.1.gz", gzip(text));
    Path unnamed = writeBytes("access.log-20260101", gzip(text));
    for (Path file : Arrays.asList(named, unnamed)) {
      try (AccessLogFiles logs = AccessLogFiles.open(file)) {
        assertEquals(Arrays.asList("/a", "/b"), paths(readAll(logs)));
        assertEquals(Files.size(file), logs.totalBytes(), "compressed bytes");
        assertEquals(Files.size(file), logs.bytesRead());
      }
    }
  }

  @Test
  void aMultiMemberGzipFileIsReadWhole() throws IOException {
    ByteArrayOutputStream both = new ByteArrayOutputStream();
    both.write(gzip(line(0, "/a") + "\n"));
    both.write(gzip(line(1, "/b") + "\n"));
    try (AccessLogFiles logs = AccessLogFiles.open(writeBytes("cat.gz", both.toByteArray()))) {
      assertEquals(Arrays.asList("/a", "/b"), paths(readAll(logs)));
    }
  }

  @Test
  void aTruncatedGzipFileIsReadUpToWhereItEndsAndSaysSo() throws IOException {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 2000; i++) {
      text.append(line(i, "/p" + i)).append('\n');
    }
    byte[] whole = gzip(text.toString());
    Path cut = writeBytes("access.log.gz", Arrays.copyOf(whole, whole.length / 2));
    try (AccessLogFiles logs = AccessLogFiles.open(cut)) {
      List<LoggedRequest> all = readAll(logs);
      assertTrue(all.size() > 100 && all.size() < 2000, "read " + all.size());
      assertEquals("/p0", all.get(0).path);
      UnparsedLines.Example last =
          logs.problems().examples().get(logs.problems().examples().size() - 1);
      assertTrue(last.reason.contains("gzip data ends early or is damaged"), last.reason);
      assertTrue(logs.problems().count() <= 2, "the damage, and perhaps the line it cut");
    }
  }

  @Test
  void otherCompressionsAreRefusedWithTheirName() throws IOException {
    Path zstd = writeBytes("access.log.zst", new byte[] {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD, 0, 0});
    IOException e = assertThrows(IOException.class, () -> AccessLogFiles.open(zstd));
    assertTrue(e.getMessage().contains("zstd"), e.getMessage());
    Path bzip2 = writeBytes("access.log.bz2", "BZh91AY&SY".getBytes(StandardCharsets.US_ASCII));
    e = assertThrows(IOException.class, () -> AccessLogFiles.open(bzip2));
    assertTrue(e.getMessage().contains("bzip2"), e.getMessage());
  }

  @Test
  void twoFilesInterleavedInTimeAreMergedInOrder() throws IOException {
    Path one = write("one.log", line(0, "/1a"), line(2, "/1b"), line(4, "/1c"), line(4, "/1d"));
    Path two = writeBytes("two.log.gz",
        gzip(line(1, "/2a") + "\n" + line(3, "/2b") + "\n" + line(4, "/2c") + "\n" + line(9, "/2d")));
    try (AccessLogFiles logs =
        AccessLogFiles.open(Arrays.asList(one, two), new LogReadOptions())) {
      assertEquals(Files.size(one) + Files.size(two), logs.totalBytes());
      List<LoggedRequest> all = readAll(logs);
      // equal times: the file named first comes first, each file keeps its own order
      assertEquals(Arrays.asList("/1a", "/2a", "/1b", "/2b", "/1c", "/1d", "/2c", "/2d"), paths(all));
      assertEquals(two.toString(), all.get(7).source);
      assertEquals(4, all.get(7).lineNumber);
      assertEquals(logs.totalBytes(), logs.bytesRead());
    }
  }

  @Test
  void linesSlightlyOutOfOrderArePutBackInOrder() throws IOException {
    // Written as requests completed: /slow started at 1 s and finished after /fast (3 s).
    Path file = write("access.log", line(0, "/a"), line(3, "/fast"), line(1, "/slow"),
        line(5, "/b"), line(4, "/c"), line(20, "/d"), line(20, "/e"));
    try (AccessLogFiles logs = AccessLogFiles.open(file)) {
      assertEquals(Arrays.asList("/a", "/slow", "/fast", "/c", "/b", "/d", "/e"),
          paths(readAll(logs)));
      assertEquals(0, logs.lateRequests());
    }
  }

  @Test
  void aLineLaterThanTheWindowTakesTheTimeOfTheRequestBeforeIt() throws IOException {
    Path file = write("access.log", line(0, "/a"), line(10, "/b"), line(20, "/c"),
        line(2, "/very-late"), line(21, "/d"));
    try (AccessLogFiles logs =
        AccessLogFiles.open(Arrays.asList(file), new LogReadOptions().reorderWindowMillis(5_000))) {
      List<LoggedRequest> all = readAll(logs);
      assertEquals(Arrays.asList("/a", "/b", "/very-late", "/c", "/d"), paths(all));
      assertEquals(at(10), all.get(2).epochMillis, "the time of the request released before it");
      assertEquals(4, all.get(2).lineNumber);
      assertEquals(1, logs.lateRequests());
      for (int i = 1; i < all.size(); i++) {
        assertTrue(all.get(i - 1).epochMillis <= all.get(i).epochMillis, "never backwards");
      }
    }
  }

  /**
   * The reorder buffer holds at most so many requests (and bytes), whatever the log's rate: a
   * burst of lines stamped with one second is released as it comes once the buffer is full, each
   * release before its window counted; a line that then comes with an older time is late.
   */
  @Test
  void aBurstFasterThanTheBufferHoldsIsReleasedEarlyAndCounted() throws IOException {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      lines.add(line(1, "/burst" + i));
    }
    lines.add(line(0, "/older"));
    lines.add(line(30, "/after"));
    Path file = write("access.log", lines.toArray(new String[0]));
    try (AccessLogFiles logs = AccessLogFiles.open(Arrays.asList(file),
        new LogReadOptions().reorderMaxRequests(1_000))) {
      List<LoggedRequest> all = readAll(logs);
      assertEquals(5_002, all.size());
      assertEquals("/burst0", all.get(0).path, "in the order of the lines");
      assertEquals(5_000 - 1_000 + 1, logs.releasedEarly(),
          "all but the last 1,000 of the burst, and one more to make room for /older");
      assertEquals(1, logs.lateRequests(), "/older: its place was released early");
      assertEquals("/older", all.get(5_000).path, "decided at the time before it");
      assertEquals(all.get(4_999).epochMillis, all.get(5_000).epochMillis);
    }
    try (AccessLogFiles logs = AccessLogFiles.open(Arrays.asList(file),
        new LogReadOptions().reorderMaxRequests(1_000).reorderMaxBytes(1L << 20))) {
      readAll(logs);
      assertTrue(logs.releasedEarly() >= 4_000, "bytes bound too: " + logs.releasedEarly());
    }
  }

  @Test
  void garbageLinesAreCountedAndTheFirstFiveShownWithTheirLineNumbers() throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add(line(0, "/ok1"));
    for (int i = 1; i <= 7; i++) {
      lines.add("garbage number " + i);
    }
    lines.add(line(1, "/ok2"));
    lines.add("192.0.2.1 - - [01/Jan/2026:00:00:02 +0000] \"-\" 400 0 \"-\" \"-\"");
    Path file = write("access.log", lines.toArray(new String[0]));
    try (AccessLogFiles logs = AccessLogFiles.open(file)) {
      assertEquals(Arrays.asList("/ok1", "/ok2"), paths(readAll(logs)));
      UnparsedLines problems = logs.problems();
      assertEquals(8, problems.count());
      assertEquals(5, problems.examples().size());
      UnparsedLines.Example first = problems.examples().get(0);
      assertEquals(2, first.lineNumber);
      assertEquals(file.toString(), first.source);
      assertEquals("garbage number 1", first.text);
      assertTrue(first.reason.contains("no [time]"), first.reason);
      assertEquals(6, problems.examples().get(4).lineNumber);
    }
  }

  @Test
  void anEmptyFileHasNoRequests() throws IOException {
    Path empty = writeBytes("empty.log", new byte[0]);
    try (AccessLogFiles logs = AccessLogFiles.open(empty)) {
      assertNull(logs.next());
      assertEquals(0, logs.totalBytes());
      assertEquals(0, logs.problems().count());
    }
    Path emptyGzip = writeBytes("empty.log.gz", gzip(""));
    Path blankLines = writeBytes("blank.log", "\n\n  \r\n".getBytes(StandardCharsets.US_ASCII));
    try (AccessLogFiles logs =
        AccessLogFiles.open(Arrays.asList(empty, emptyGzip, blankLines), new LogReadOptions())) {
      assertNull(logs.next());
      assertEquals(0, logs.problems().count(), "blank lines are no problem");
    }
  }

  @Test
  void crlfLineEndingsAndAByteOrderMark() throws IOException {
    byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    byte[] text = (line(0, "/a") + "\r\n" + line(1, "/b") + "\r\n").getBytes(StandardCharsets.UTF_8);
    byte[] both = new byte[bom.length + text.length];
    System.arraycopy(bom, 0, both, 0, 3);
    System.arraycopy(text, 0, both, 3, text.length);
    try (AccessLogFiles logs = AccessLogFiles.open(writeBytes("windows.log", both))) {
      List<LoggedRequest> all = readAll(logs);
      assertEquals(Arrays.asList("/a", "/b"), paths(all));
      assertEquals("192.0.2.1", all.get(0).clientAddress);
      assertEquals("UA", all.get(1).header("user-agent"), "no \\r left at the end of the line");
    }
  }

  @Test
  void aLastLineWithoutNewlineIsRead() throws IOException {
    Path file = writeBytes("access.log",
        (line(0, "/a") + "\n" + line(1, "/b")).getBytes(StandardCharsets.UTF_8));
    try (AccessLogFiles logs = AccessLogFiles.open(file)) {
      assertEquals(Arrays.asList("/a", "/b"), paths(readAll(logs)));
    }
  }

  @Test
  void aLineOfOneMegabyteIsReadAndAnOverlongLineIsAProblemNotTheEnd() throws IOException {
    StringBuilder query = new StringBuilder("q=");
    while (query.length() < 1 << 20) {
      query.append("abcdefghij");
    }
    Path file = write("big.log", line(0, "/a"), line(1, "/big?" + query), line(2, "/c"));
    try (AccessLogFiles logs = AccessLogFiles.open(file)) {
      List<LoggedRequest> all = readAll(logs);
      assertEquals(Arrays.asList("/a", "/big", "/c"), paths(all));
      assertEquals(query.toString(), all.get(1).query);
    }
    try (AccessLogFiles logs = AccessLogFiles.open(Arrays.asList(file),
        new LogReadOptions().maxLineBytes(100_000))) {
      assertEquals(Arrays.asList("/a", "/c"), paths(readAll(logs)));
      assertEquals(1, logs.problems().count());
      UnparsedLines.Example example = logs.problems().examples().get(0);
      assertEquals(2, example.lineNumber);
      assertTrue(example.reason.contains("longer than 100000 bytes"), example.reason);
      assertEquals(203, example.text.length(), "cut for the message");
    }
  }

  @Test
  void bytesThatAreNotUtf8DoNotStopTheFile() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    bytes.write((line(0, "/a") + "\n").getBytes(StandardCharsets.UTF_8));
    bytes.write(new byte[] {(byte) 0xFF, (byte) 0xFE, (byte) 0xC3, '(', (byte) 0x80, '\n'});
    bytes.write(("192.0.2.1 - - [01/Jan/2026:00:00:01 +0000] \"GET /caf").getBytes(StandardCharsets.UTF_8));
    bytes.write(new byte[] {(byte) 0xE9});
    bytes.write((" HTTP/1.1\" 200 5\n").getBytes(StandardCharsets.UTF_8));
    try (AccessLogFiles logs = AccessLogFiles.open(writeBytes("latin1.log", bytes.toByteArray()))) {
      List<LoggedRequest> all = readAll(logs);
      assertEquals(Arrays.asList("/a", "/caf\uFFFD"), paths(all));
      assertEquals(1, logs.problems().count());
      assertEquals(2, logs.problems().examples().get(0).lineNumber);
    }
  }

  @Test
  void aDashIsStandardInputPlainOrGzipWithNoTotalSize() throws IOException {
    java.io.InputStream saved = System.in;
    try {
      System.setIn(new java.io.ByteArrayInputStream(gzip(line(0, "/in") + "\n" + line(2, "/in2"))));
      Path file = write("file.log", line(1, "/file"));
      try (AccessLogFiles logs = AccessLogFiles.open(
          Arrays.asList(Path.of("-"), file), new LogReadOptions())) {
        List<LoggedRequest> all = readAll(logs);
        assertEquals(Arrays.asList("/in", "/file", "/in2"), paths(all));
        assertEquals("(standard input)", all.get(0).source);
        assertEquals(0, logs.totalBytes(), "unknown");
        assertTrue(logs.bytesRead() > Files.size(file));
      }
    } finally {
      System.setIn(saved);
    }
  }

  @Test
  void formatNamesAreCheckedWithAMessageThatHelps() {
    assertEquals(LogFormat.TOMCAT, LogFormat.fromName(" Tomcat "));
    assertEquals("json", LogFormat.JSON.cliName());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> LogFormat.fromName("apache"));
    assertEquals("unknown log format 'apache': use combined, common, tomcat or json",
        e.getMessage());
  }

  @Test
  void aMissingFileIsAnIOExceptionNamingIt() {
    Path missing = dir.resolve("missing.log");
    IOException e = assertThrows(IOException.class, () -> AccessLogFiles.open(missing));
    assertTrue(e.getMessage().contains("missing.log"), e.getMessage());
  }

  @Test
  void eachFilesFormatIsRecognisedFromItsFirstLines() throws IOException {
    Path combined = write("combined.log", "garbage first line", line(0, "/a"));
    Path common = write("common.log",
        "192.0.2.1 - - [01/Jan/2026:00:00:01 +0000] \"GET /b HTTP/1.1\" 200 5");
    Path json = write("json.log",
        "{\"time\":\"2026-01-01T00:00:02Z\",\"remote_addr\":\"192.0.2.9\",\"request\":\"GET /c HTTP/1.1\",\"status\":200}");
    try (AccessLogFiles logs =
        AccessLogFiles.open(Arrays.asList(combined, common, json), new LogReadOptions())) {
      assertEquals(Arrays.asList(LogFormat.COMBINED, LogFormat.COMMON, LogFormat.JSON),
          new ArrayList<>(logs.formats().values()));
      assertEquals(Arrays.asList("/a", "/b", "/c"), paths(readAll(logs)));
      assertEquals(1, logs.problems().count());
    }
  }

  @Test
  void aNamedFormatIsUsedForEveryFile() throws IOException {
    Path json = write("json.log", "{\"ts\":1767225600,\"method\":\"GET\",\"path\":\"/c\"}");
    try (AccessLogFiles logs = AccessLogFiles.open(Arrays.asList(json),
        new LogReadOptions().format(LogFormat.COMBINED))) {
      assertNull(logs.next());
      assertEquals(1, logs.problems().count());
    }
    try (AccessLogFiles logs = AccessLogFiles.open(Arrays.asList(json),
        new LogReadOptions().format(LogFormat.JSON))) {
      LoggedRequest r = logs.next();
      assertEquals("/c", r.path);
      assertEquals(Instant.parse("2026-01-01T00:00:00Z").toEpochMilli(), r.epochMillis);
    }
  }
}
