package io.tollgate.testing;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What a test wrote to standard error, where the agent's log goes: register it with
 * {@code @RegisterExtension}; each test starts with nothing captured and ends with the original
 * stream back.
 */
public final class StandardErrorCapture implements BeforeEachCallback, AfterEachCallback {

  private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
  private PrintStream original;

  @Override
  public void beforeEach(ExtensionContext context) {
    original = System.err;
    captured.reset();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
  }

  @Override
  public void afterEach(ExtensionContext context) {
    System.setErr(original);
  }

  /** Everything captured so far. */
  public String text() {
    return captured.toString(StandardCharsets.UTF_8);
  }

  /**
   * The agent's lines captured so far ({@code [tollgate] ...}): other tools in the test JVM write
   * to standard error too (a fuzzer's instrumentation announces each class it loads).
   */
  public List<String> agentLines() {
    return text().lines().filter(l -> l.startsWith("[tollgate] ")).collect(Collectors.toList());
  }
}
