package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.testing.StandardErrorCapture;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An outage of Redis reads in the log as it happened: when decisions began to fail and why, once
 * (not once per request), and when Redis answered again, with how many decisions fell back.
 */
class RedisOutageLogTest {

  @RegisterExtension final StandardErrorCapture err = new StandardErrorCapture();

  @Test
  void whileRedisAnswersNothingIsLogged() {
    RedisOutageLog log = new RedisOutageLog("redis://cache:6379");
    for (int i = 0; i < 100; i++) {
      log.answered();
    }
    assertEquals(List.of(), err.agentLines());
  }

  @Test
  void anOutageIsOneWarningThenOneLineWhenItEnds() {
    RedisOutageLog log = new RedisOutageLog("redis://cache:6379");
    log.decisionFailed("timed out");
    log.decisionFailed("circuit open after: timed out");
    log.decisionFailed("circuit open after: timed out");
    assertTrue(log.failing());
    log.answered();
    log.answered();

    List<String> lines = err.agentLines();
    assertEquals(2, lines.size(), String.join("\n", lines));
    assertEquals("[tollgate] WARN redis at redis://cache:6379 cannot decide (timed out): each rule on"
        + " it applies its on-failure policy until it answers again", lines.get(0));
    assertTrue(lines.get(1).startsWith("[tollgate] redis at redis://cache:6379 answers again, after "),
        lines.get(1));
    assertTrue(lines.get(1).endsWith(" s in which 3 decisions fell back to on-failure"),
        lines.get(1));
    assertTrue(!log.failing());
  }

  @Test
  void aSecondOutageIsReportedAfreshWithItsOwnCount() {
    RedisOutageLog log = new RedisOutageLog("redis://cache:6379");
    log.decisionFailed("timed out");
    log.answered();
    log.decisionFailed("RedisCommandExecutionException: OOM command not allowed");
    log.decisionFailed("RedisCommandExecutionException: OOM command not allowed");
    log.answered();

    List<String> lines = err.agentLines();
    assertEquals(4, lines.size(), String.join("\n", lines));
    assertTrue(lines.get(2).contains("cannot decide (RedisCommandExecutionException: OOM"),
        lines.get(2));
    assertTrue(lines.get(3).endsWith(" 2 decisions fell back to on-failure"), lines.get(3));
  }

  /**
   * A reconnect slower than max-wait that has not failed, or whose attempts were reset partway
   * while Redis answered lately, is not an outage: one line saying the local share decided,
   * whatever on-failure says, and when on-failure would, and no outage begun (nothing fell back).
   */
  @Test
  void aSlowReconnectIsNotAnOutage() {
    RedisOutageLog log = new RedisOutageLog("redis://cache:6379");
    log.decisionLate(RedisFailure.RECONNECTING, "not connected again yet after a drop", 1000);
    log.decisionLate(RedisFailure.RECONNECTING, "not connected again yet after a drop", 1000);

    assertEquals(List.of("[tollgate] WARN redis at redis://cache:6379 is slow to reconnect after a"
        + " drop, and no attempt was refused or timed out (max-wait 1000 ms: not connected again"
        + " yet after a drop): 1 decision(s) were made by their rule's local share instead,"
        + " whatever its on-failure (a loaded host, or a path that resets attempts partway;"
        + " on-failure once an attempt is refused or times out, or redis has not answered for the"
        + " connect timeout)"), err.agentLines());
    assertTrue(!log.failing());
    assertEquals(0, log.failedTotal());
    assertEquals(2, log.lateTotal());
  }

  /**
   * A call on the wire when the connection dropped is decided by its rule's local share, as the
   * log says; no outage begins unless the reconnect then fails.
   */
  @Test
  void aCallLostWithItsConnectionIsDecidedByTheLocalShareAndSaysSo() {
    RedisOutageLog log = new RedisOutageLog("redis://cache:6379");
    log.decisionLate(RedisFailure.LOST, "Connection reset by peer", 1000);

    assertEquals(List.of("[tollgate] WARN redis at redis://cache:6379 dropped the connection with"
        + " calls on it (Connection reset by peer): 1 decision(s) were made by their rule's local"
        + " share instead, whatever its on-failure (their scripts may have run; a reconnect that"
        + " fails applies on-failure)"), err.agentLines());
    assertTrue(!log.failing());
    assertEquals(0, log.failedTotal());
    assertEquals(1, log.lateTotal());
  }
}
