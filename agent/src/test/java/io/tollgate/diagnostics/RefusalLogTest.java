package io.tollgate.diagnostics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tollgate.testing.StandardErrorCapture;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The refusal log: one line per refused request, at most N per rule per minute, and a summary of
 * the rest once the minute is over.
 */
class RefusalLogTest {

  @RegisterExtension final StandardErrorCapture stderr = new StandardErrorCapture();

  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final RefusalLog log = new RefusalLog(now::get);

  private void refuse(String rule, int times) {
    for (int i = 0; i < times; i++) {
      if (log.admit(rule)) {
        log.write(rule, "GET", "/hello", "'203.0.113.7'", 12, 429);
      }
    }
  }

  private void advanceSeconds(long seconds) {
    now.addAndGet(TimeUnit.SECONDS.toNanos(seconds));
  }

  @Test
  void theFirstLinesOfAMinuteAreWrittenAndTheRestSummedUp() {
    refuse("hello-per-ip", 25);

    assertEquals(10, lines("refused GET /hello").size());
    assertEquals("[tollgate] refused GET /hello by rule 'hello-per-ip' key '203.0.113.7': 429,"
        + " Retry-After 12s", lines("refused").get(0));
    log.summarizeEndedMinutes();
    assertEquals(List.of(), lines("more refusal"), "the minute is not over");

    advanceSeconds(60);
    log.summarizeEndedMinutes();
    assertEquals(List.of("[tollgate] ... and 15 more refusals by rule 'hello-per-ip' in the last"
        + " minute"), lines("more refusal"));

    // A new minute: lines again, and nothing left to sum up until it is over.
    refuse("hello-per-ip", 3);
    assertEquals(13, lines("refused GET /hello").size());
    advanceSeconds(60);
    log.summarizeEndedMinutes();
    assertEquals(1, lines("more refusal").size());
  }

  @Test
  void aRefusalAfterTheMinuteWritesTheSummaryFirst() {
    refuse("login", 11);
    advanceSeconds(61);
    refuse("login", 1);
    List<String> all = stderr.agentLines();
    assertEquals("[tollgate] ... and 1 more refusal by rule 'login' in the last minute",
        all.get(10));
    assertEquals(12, all.size());
  }

  @Test
  void eachRuleHasItsOwnLines() {
    log.setLinesPerMinute(2);
    refuse("a", 5);
    refuse("b", 5);
    assertEquals(2, lines("by rule 'a'").size());
    assertEquals(2, lines("by rule 'b'").size());
  }

  @Test
  void offWritesNothing() {
    log.setLinesPerMinute(0);
    refuse("hello-per-ip", 5);
    advanceSeconds(60);
    log.summarizeEndedMinutes();
    assertEquals(List.of(), stderr.agentLines());
  }

  @Test
  void whatTheClientSentIsMadePrintableAndShort() {
    log.write("r", "GET\r\n", "/a\nb\u0000" + "x".repeat(300), "'k'", 1, 503);
    String line = stderr.agentLines().get(0);
    assertEquals("[tollgate] refused GET?? /a?b?" + "x".repeat(195) + "... by rule 'r' key 'k': 503"
        + " (the rule's backend cannot decide and its on-failure is deny), Retry-After 1s", line);
  }

  private List<String> lines(String containing) {
    return stderr.agentLines().stream()
        .filter(l -> l.contains(containing))
        .collect(Collectors.toList());
  }
}
