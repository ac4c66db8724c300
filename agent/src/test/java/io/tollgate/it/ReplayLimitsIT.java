package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code replay} on logs whose shape once took it past its memory or kept it from stopping: a
 * million lines stamped with one second (its 5 s reorder window held them all: 685 MB), a line
 * far over the longest kept, and a {@code SIGTERM} in the middle of a log. Each replay runs in its
 * own JVM with {@code -Xmx256m}, as an operator's would on a small box. Durations are printed as
 * figures, not asserted.
 */
class ReplayLimitsIT {

  private static final String HEAP = "-Xmx256m";

  @TempDir Path dir;

  private Path rules() throws IOException {
    Path rules = dir.resolve("rules.yaml");
    Files.write(rules, String.join("\n",
        "rules:",
        "  - {name: api-per-ip, match: {path: /api/**}, key: ip, limit: 100, period: 1m}",
        "  - {name: api-global, match: {path: /api/**}, key: global, limit: 5000, period: 1s}",
        "").getBytes(StandardCharsets.UTF_8));
    return rules;
  }

  /** An NCSA combined line of {@code client} at 10:00:{@code second}. */
  private static String line(String client, int second, String path) {
    return client + " - - [30/Nov/2026:10:00:" + String.format("%02d", second)
        + " +0000] \"GET " + path + " HTTP/1.1\" 200 512 \"-\" \"curl/8.5\"\n";
  }

  private static Process replay(Path out, Path err, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(Jdk.current().javaExecutable(), HEAP,
        "-XX:+ExitOnOutOfMemoryError", "-jar", TestPaths.agentJar().getAbsolutePath(), "replay",
        "--no-progress"));
    command.addAll(Arrays.asList(args));
    return new ProcessBuilder(command)
        .redirectOutput(out.toFile())
        .redirectError(err.toFile())
        .start();
  }

  private String runToTheEnd(String... args) throws Exception {
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    long start = System.nanoTime();
    Process process = replay(out, err, args);
    process.getOutputStream().close();
    assertTrue(process.waitFor(10, TimeUnit.MINUTES), "the replay ended");
    String text = Files.readString(out);
    assertEquals(0, process.exitValue(), text + Files.readString(err));
    System.out.println("[ReplayLimitsIT] " + args[args.length - 1] + ": replayed with " + HEAP
        + " in " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms");
    return text;
  }

  @Test
  void aMillionLinesInOneSecondReplayWithin256Megabytes() throws Exception {
    Path log = dir.resolve("burst.log.gz");
    try (Writer w = new java.io.OutputStreamWriter(new GZIPOutputStream(
        Files.newOutputStream(log), 1 << 16), StandardCharsets.US_ASCII)) {
      for (int i = 0; i < 1_000_000; i++) {
        int client = i % 50_000;
        w.write(line("10." + (client >> 16) + "." + ((client >> 8) & 255) + "." + (client & 255),
            7, "/api/items/" + (i % 1_000)));
      }
    }

    String out = runToTheEnd(rules().toString(), log.toString());

    assertTrue(out.contains("Replayed 1,000,000 requests"), out);
    assertTrue(out.contains("900,000 requests were taken out of the reorder window before it had"
        + " passed"), "the buffer held 100,000 of them at most: " + out);
  }

  @Test
  void aLineOverEightMegabytesIsSkippedAndCounted() throws Exception {
    Path log = dir.resolve("one-long-line.log.gz");
    try (OutputStream gz = new GZIPOutputStream(Files.newOutputStream(log), 1 << 16)) {
      gz.write(line("192.0.2.1", 1, "/api/a").getBytes(StandardCharsets.US_ASCII));
      byte[] chunk = new byte[1 << 20];
      Arrays.fill(chunk, (byte) 'x');
      for (int i = 0; i < 200; i++) { // 200 MB of one line, 200 KB of gzip
        gz.write(chunk);
      }
      gz.write('\n');
      gz.write(line("192.0.2.2", 2, "/api/b").getBytes(StandardCharsets.US_ASCII));
    }

    String out = runToTheEnd(rules().toString(), log.toString());

    assertTrue(out.contains("Replayed 2 requests"), out);
    assertTrue(out.contains("Could not read 1 line (not replayed)"), out);
    assertTrue(out.contains(": line 2: line longer than 8388608 bytes: xxxx"), out);
  }

  /**
   * {@code SIGTERM} (what {@code kill} and {@link Process#destroy} send) ends a replay in the
   * middle of its log with the exit code of a terminated JVM: a log of lines, and one endless
   * line, fed on standard input as long as the replay reads.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"lines", "one endless line"})
  void sigtermStopsAReplayInTheMiddleOfItsLog(String shape) throws Exception {
    Process process = replay(dir.resolve("out.txt"), dir.resolve("err.txt"),
        rules().toString(), "-");
    AtomicLong written = new AtomicLong();
    Thread feeder = new Thread(() -> {
      byte[] data = (shape.equals("lines")
          ? line("192.0.2.7", 3, "/api/feed").repeat(200)
          : "x".repeat(16_384)).getBytes(StandardCharsets.US_ASCII);
      try (OutputStream in = process.getOutputStream()) {
        while (true) {
          in.write(data);
          written.addAndGet(data.length);
        }
      } catch (IOException e) {
        // the replay has ended: its standard input is closed
      }
    }, "replay-feeder");
    feeder.setDaemon(true);
    feeder.start();
    // the pipe holds 64 KB: 32 MB written is 32 MB read by the replay, well under way
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while (written.get() < (32 << 20)) {
      assertTrue(process.isAlive(), "replaying: " + Files.readString(dir.resolve("err.txt")));
      assertTrue(System.nanoTime() < deadline, "the replay reads its input");
      Thread.sleep(20);
    }

    long start = System.nanoTime();
    process.destroy();
    assertTrue(process.waitFor(2, TimeUnit.MINUTES), "SIGTERM ends the replay");
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    assertEquals(143, process.exitValue(), "the exit code of a JVM ended by SIGTERM");
    System.out.println("[ReplayLimitsIT] " + shape + ": ended " + millis + " ms after SIGTERM,"
        + " " + (written.get() >> 20) + " MB read");
  }
}
