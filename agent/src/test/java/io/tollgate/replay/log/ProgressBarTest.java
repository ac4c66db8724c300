package io.tollgate.replay.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProgressBarTest {

  /** A reader that has read {@code read} of 1,000,000 bytes. */
  private static final class Reader implements AccessLogReader {
    long read;

    @Override
    public LoggedRequest next() {
      return null;
    }

    @Override
    public UnparsedLines problems() {
      return new UnparsedLines();
    }

    @Override
    public long bytesRead() {
      return read;
    }

    @Override
    public long totalBytes() {
      return 1_000_000;
    }

    @Override
    public void close() {}
  }

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
  private final Reader reader = new Reader();
  private long now = 1_000_000_000L;

  private String printed() {
    return new String(bytes.toByteArray(), StandardCharsets.UTF_8);
  }

  private void updates(ProgressBar bar, int count) {
    for (int i = 0; i < count; i++) {
      bar.update(i);
    }
  }

  @Test
  void drawsNothingWhenNotOnATerminal() {
    ProgressBar bar = ProgressBar.start(reader, err, false, () -> now);
    now += 5_000_000_000L;
    updates(bar, 10_000);
    bar.finish();
    assertEquals("", printed());
  }

  @Test
  void onATerminalDrawsAtMostTenTimesASecondThenErasesItself() {
    ProgressBar bar = ProgressBar.start(reader, err, true, () -> now);
    updates(bar, 10_000);
    assertEquals("", printed(), "nothing in the first quarter second");
    now += 300_000_000L;
    reader.read = 250_000;
    updates(bar, 10_000);
    String first = printed();
    assertTrue(first.startsWith("\r 25% [######..................]"), first);
    assertTrue(first.contains("0:00 left"), first);
    assertEquals(1, first.chars().filter(c -> c == '\r').count(), "one draw within 100 ms");
    now += 100_000_000L;
    updates(bar, 256);
    assertEquals(2, printed().chars().filter(c -> c == '\r').count());
    bar.finish();
    String all = printed();
    assertTrue(all.endsWith("\r" + " ".repeat(first.length() - 1) + "\r"), all);
  }

  @Test
  void theLineSaysWhatIsDoneAndWhatIsLeft() {
    assertEquals(
        " 50% [############............]  1,234,567 requests  0.5 of 1.0 MB  1:00 left",
        ProgressBar.line(1_234_567, 500_000, 1_000_000, 60_000_000_000L));
    assertEquals("100% [########################]  7 requests  1.0 of 1.0 MB",
        ProgressBar.line(7, 1_000_000, 1_000_000, 1));
    assertEquals("42 requests  0.0 MB", ProgressBar.line(42, 0, 0, 1));
    assertTrue(ProgressBar.line(Long.MAX_VALUE, Long.MAX_VALUE / 3, Long.MAX_VALUE, 1L << 60)
        .length() <= 79);
  }
}
