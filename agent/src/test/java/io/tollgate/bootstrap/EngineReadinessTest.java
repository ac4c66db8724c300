package io.tollgate.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * While the agent starts beside the application, a request that reaches an entry point waits for
 * the engine, and is then decided by it: none passes unlimited for being early. The wait is
 * bounded, and a start that hangs stops the waiting for every request after the first.
 */
class EngineReadinessTest {

  private static final Object DECIDED = "decided by the engine";

  private final RequestGate engine =
      new RequestGate() {
        @Override
        public Object servletRequestStarted(Object request, Object response) {
          return DECIDED;
        }

        @Override
        public void servletRequestEnded(Object scope, Throwable thrown) {}

        @Override
        public Object springHandlerStarted(Object request, Object response) {
          return DECIDED;
        }

        @Override
        public Object jaxrsResourceStarted(Object processingContext) {
          return DECIDED;
        }

        @Override
        public void jaxrsResourceEnded(Object decision, Object response) {}

        @Override
        public void serverRequestStarted(Object serverRequest) {}

        @Override
        public void serverRequestEnded() {}
      };

  @AfterEach
  void reset() {
    TollgateBridge.install(null);
    EngineReadiness.resetForTests();
  }

  @Test
  void aRequestBeforeTheEngineIsInstalledWaitsForItAndIsDecidedByIt() throws Exception {
    TollgateBridge.install(null);
    EngineReadiness.expect();
    CompletableFuture<Object> request = startRequest();
    Thread.sleep(100);
    assertTrue(!request.isDone(), "the request waits while the agent starts");

    TollgateBridge.install(engine);

    assertEquals(DECIDED, request.get(5, TimeUnit.SECONDS));
    assertTrue(EngineReadiness.waitSummary().startsWith("1 request(s) waited for it"),
        EngineReadiness.waitSummary());
  }

  @Test
  void withoutAStartInProgressNothingWaits() throws Exception {
    TollgateBridge.install(null);
    EngineReadiness.ready();

    assertNull(startRequest().get(1, TimeUnit.SECONDS), "passes at once");
    assertEquals("no request waited for it", EngineReadiness.waitSummary());
  }

  @Test
  void aStartThatFailedLetsWaitingRequestsPass() throws Exception {
    TollgateBridge.install(null);
    EngineReadiness.expect();
    CompletableFuture<Object> request = startRequest();
    Thread.sleep(100);

    EngineReadiness.ready(); // the start failed: no engine will come

    assertNull(request.get(5, TimeUnit.SECONDS));
  }

  @Test
  void aStartThatHangsIsWaitedForOnceThenRequestsPassUnlimited() throws Exception {
    TollgateBridge.install(null);
    EngineReadiness.maxWaitMillis = 200;
    EngineReadiness.expect();

    long start = System.nanoTime();
    assertNull(startRequest().get(5, TimeUnit.SECONDS), "gave up after the bound");
    assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(200));
    assertNull(startRequest().get(100, TimeUnit.MILLISECONDS), "the next one does not wait");

    TollgateBridge.install(engine);
    assertEquals(DECIDED, startRequest().get(1, TimeUnit.SECONDS), "decided once it is there");
  }

  private static CompletableFuture<Object> startRequest() {
    return CompletableFuture.supplyAsync(() -> TollgateBridge.servletRequestStarted("req", "res"));
  }
}
