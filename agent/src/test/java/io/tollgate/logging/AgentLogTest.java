package io.tollgate.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tollgate.bootstrap.AgentLogSink;
import io.tollgate.testing.StandardErrorCapture;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Where no server captures standard error (a plain {@code System.err}, as here), every line goes
 * there with the {@code [tollgate]} prefix and its level; the bootstrap tier's lines, which arrive
 * formatted, keep their level and are not prefixed twice.
 */
class AgentLogTest {

  @RegisterExtension final StandardErrorCapture stderr = new StandardErrorCapture();
  @Test
  void eachLineOnStandardErrorWithItsLevel() {
    AgentLog.installAsSink();

    AgentLog.info("loaded 3 rules");
    AgentLog.warn("no rules file given");
    AgentLog.error("the agent could not start");
    AgentLogSink.warn("the agent has not finished starting");
    AgentLogSink.error("deciding a servlet request failed", null);
    AgentLogSink.write(AgentLogSink.PREFIX + "ready");

    List<String> expected = List.of(
        "[tollgate] loaded 3 rules",
        "[tollgate] WARN no rules file given",
        "[tollgate] ERROR the agent could not start",
        "[tollgate] WARN the agent has not finished starting",
        "[tollgate] ERROR deciding a servlet request failed",
        "[tollgate] ready");
    assertEquals(expected, stderr.agentLines());
  }
}
