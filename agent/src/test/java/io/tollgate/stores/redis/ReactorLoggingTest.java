package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tollgate.testing.StandardErrorCapture;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.util.Logger;
import reactor.util.Loggers;

/** Reactor's warnings reach the agent's log like Lettuce's; its chatter below that does not. */
class ReactorLoggingTest {

  @RegisterExtension final StandardErrorCapture err = new StandardErrorCapture();

  @Test
  void warningsAndErrorsGoToTheAgentsLogOnlyThey() {
    ReactorLogging.install();
    Logger logger = Loggers.getLogger("reactor.core.publisher.Operators.test" + System.nanoTime());
    logger.info("started");
    logger.debug("details {}", 1);
    logger.warn("dropped {} signal", "onNext");
    logger.error("failed", new IllegalStateException("boom"));

    List<String> lines = err.agentLines();
    assertEquals(2, lines.size(), err.text());
    assertEquals(true, lines.get(0).contains("redis client warning")
        && lines.get(0).endsWith("dropped onNext signal"), lines.get(0));
    assertEquals(true, lines.get(1).contains("redis client error")
        && lines.get(1).contains("failed (IllegalStateException: boom)"), lines.get(1));
  }
}
