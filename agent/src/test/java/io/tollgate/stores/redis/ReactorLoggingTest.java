package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.util.Logger;
import reactor.util.Loggers;

/** Reactor's warnings reach the agent's log like Lettuce's; its chatter below that does not. */
class ReactorLoggingTest {

  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream original;

  @BeforeEach
  void captureTheLog() {
    original = System.err;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restore() {
    System.setErr(original);
  }

  @Test
  void warningsAndErrorsGoToTheAgentsLogOnlyThey() {
    ReactorLogging.install();
    Logger logger = Loggers.getLogger("reactor.core.publisher.Operators.test" + System.nanoTime());
    logger.info("started");
    logger.debug("details {}", 1);
    logger.warn("dropped {} signal", "onNext");
    logger.error("failed", new IllegalStateException("boom"));

    List<String> lines = err.toString(StandardCharsets.UTF_8).lines()
        .filter(l -> l.startsWith("[tollgate] "))
        .collect(Collectors.toList());
    assertEquals(2, lines.size(), err.toString(StandardCharsets.UTF_8));
    assertEquals(true, lines.get(0).contains("redis client warning")
        && lines.get(0).endsWith("dropped onNext signal"), lines.get(0));
    assertEquals(true, lines.get(1).contains("redis client error")
        && lines.get(1).contains("failed (IllegalStateException: boom)"), lines.get(1));
  }
}
