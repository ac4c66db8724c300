package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's app (servlet-jakarta, as ./demo.sh starts it) logs no sign of the benchmark's
 * hand-written Bucket4j filter: an {@code instrumented ...Bucket4jRateLimitFilter} line made the
 * app look as if it had a limiter of its own. The filter exists only with
 * {@code -Dtestapp.bucket4j}.
 */
class DemoAppLogIT {

  private static final String FILTER = "Bucket4jRateLimitFilter";

  @TempDir Path dir;

  @Test
  void theBenchmarksFilterIsNotLoadedUnlessAskedFor() throws Exception {
    Path rules = RulesFiles.helloPerIp(dir, 5);
    try (ForkedApp app = ForkedApp.app("servlet-jakarta").withAgent("config=" + rules).start()) {
      ItSupport.assertAllowedThenRefused(app, "/hello", 1, 0);
      ItSupport.awaitCount(app, "ready; watching", 1, ItSupport.RELOAD_TIMEOUT);
      assertEquals(0, ItSupport.count(app, FILTER), String.join("\n", app.agentLog()));
    }
    // The same check sees the filter when the benchmark asks for it.
    try (ForkedApp app = ForkedApp.app("servlet-jakarta").withAgent("config=" + rules)
        .jvmOption("-Dtestapp.bucket4j=map").start()) {
      ItSupport.assertAllowedThenRefused(app, "/hello", 1, 0);
      ItSupport.awaitCount(app, "instrumented io.tollgate.testapps.servlet_jakarta." + FILTER, 1,
          ItSupport.RELOAD_TIMEOUT);
    }
  }
}
