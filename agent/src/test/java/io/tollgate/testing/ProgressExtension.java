package io.tollgate.testing;

import java.lang.reflect.Method;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.opentest4j.TestAbortedException;

/**
 * A {@link Progress} line for each integration test that runs long (a server or an app started, a
 * flood sent), when it ends, so that the build's quiet minutes name what they are spent on. Quick
 * tests say nothing: failsafe's own "Running" and "Tests run" lines already frame them; nor do
 * skipped ones, whose reason has its own line ({@code [jdk25]}, {@code [chromium]}).
 *
 * <p>Registered for the integration tests only: failsafe turns on JUnit's extension autodetection
 * (agent/pom.xml) and META-INF/services names this class; surefire's unit tests leave it off.
 */
public final class ProgressExtension
    implements BeforeTestExecutionCallback, AfterTestExecutionCallback {

  /** A test shorter than this goes by without a line. */
  static final long LONG_MILLIS = 10_000;

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(ProgressExtension.class);

  @Override
  public void beforeTestExecution(ExtensionContext context) {
    context.getStore(NAMESPACE).put("started", System.nanoTime());
  }

  @Override
  public void afterTestExecution(ExtensionContext context) {
    Long started = context.getStore(NAMESPACE).remove("started", Long.class);
    if (started == null) {
      return;
    }
    long millis = (System.nanoTime() - started) / 1_000_000;
    Throwable thrown = context.getExecutionException().orElse(null);
    if (thrown instanceof TestAbortedException) {
      // skipped (no JDK 25, no Chromium): the one line that says why was printed already
      return;
    }
    if (millis < LONG_MILLIS && thrown == null) {
      return;
    }
    String test = context.getTestMethod().map(Method::getName).orElse("?");
    String display = context.getDisplayName();
    if (!display.startsWith(test)) {
      test = test + " [" + display + "]";
    }
    Progress.say(context.getRequiredTestClass().getSimpleName(), test + " "
        + (thrown != null ? "failed" : "done") + " in "
        + millis / 1000 + " s");
  }
}
