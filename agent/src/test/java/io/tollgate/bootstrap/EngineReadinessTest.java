package io.tollgate.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * While the agent starts beside the application, a request that reaches an entry point waits for
 * the engine, and is then decided by it: none passes unlimited for being early. The wait is
 * bounded, and a start that hangs stops the waiting for every request after the first.
 */
class EngineReadinessTest {

  private static final Object DECIDED = "decided by the engine";

  /** What the bridge told the engine the request waited, at its last enter. */
  private final AtomicReference<Long> toldWaited = new AtomicReference<>();

  private final RequestGate engine =
      new RequestGate() {
        @Override
        public Object enter(int entryPoint, Object first, Object second) {
          toldWaited.set(TollgateBridge.startupWaitNanos());
          return DECIDED;
        }

        @Override
        public void exit(int entryPoint, Object scope, Throwable thrown) {}

        @Override
        public Object returned(int entryPoint, Object scope, Object result) {
          return result;
        }
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
    Request request = Request.start();
    request.awaitWaiting();

    TollgateBridge.install(engine);

    assertEquals(DECIDED, request.answer());
    assertEquals("1 request(s) waited for it", waitedCount());
    assertTrue(toldWaited.get() > 0, "the engine counts the wait in what it may hold the request");
  }

  @Test
  void aRequestThatDidNotWaitIsSaidToHaveWaitedNothing() throws Exception {
    TollgateBridge.install(engine);

    assertEquals(DECIDED, Request.start().answer());
    assertEquals(0L, toldWaited.get());
  }

  @Test
  void withoutAStartInProgressNothingWaits() throws Exception {
    TollgateBridge.install(null);
    EngineReadiness.ready();

    assertNull(Request.start().answer(), "passes");
    assertEquals("no request waited for it", EngineReadiness.waitSummary());
  }

  @Test
  void aStartThatFailedLetsWaitingRequestsPass() throws Exception {
    TollgateBridge.install(null);
    EngineReadiness.expect();
    Request request = Request.start();
    request.awaitWaiting();

    EngineReadiness.ready(); // the start failed: no engine will come

    assertNull(request.answer());
  }

  @Test
  void aStartThatHangsIsWaitedForOnceThenRequestsPassUnlimited() throws Exception {
    TollgateBridge.install(null);
    EngineReadiness.maxWaitMillis = 200;
    EngineReadiness.expect();

    assertNull(Request.start().answer(), "gave up after the bound");
    assertEquals("1 request(s) waited for it", waitedCount());
    assertNull(Request.start().answer(), "the next one passes");
    assertEquals("1 request(s) waited for it", waitedCount(), "without waiting");

    TollgateBridge.install(engine);
    assertEquals(DECIDED, Request.start().answer(), "decided once it is there");
  }

  @Test
  void aStartDeferredToTheFirstRequestBeginsWhenOneArrivesWhichIsThenDecided() throws Exception {
    TollgateBridge.install(null);
    EngineReadiness.expect();
    EngineReadiness.startAtFirstRequest();
    Thread startUp = new Thread(() -> {
      try {
        EngineReadiness.awaitFirstRequest();
        TollgateBridge.install(engine);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    startUp.start();
    // On a busy machine the thread may take a while to get there: wait for it to wait or end
    assertEquals(Thread.State.WAITING, settledState(startUp), "no request yet: the start waits");

    Request first = Request.start();

    assertEquals(DECIDED, first.answer(), "the first request waited for the start it began");
    startUp.join(TimeUnit.SECONDS.toMillis(10));
    assertEquals("1 request(s) waited for it", waitedCount());
    assertEquals(DECIDED, Request.start().answer());
    assertEquals("1 request(s) waited for it", waitedCount(), "later requests do not wait");
  }

  @Test
  void withoutADeferredStartTheStartThreadDoesNotWaitForARequest() throws Exception {
    EngineReadiness.expect();
    Thread startUp = new Thread(() -> {
      try {
        EngineReadiness.awaitFirstRequest();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    startUp.start();
    startUp.join(TimeUnit.SECONDS.toMillis(10));
    assertTrue(!startUp.isAlive());
  }

  /**
   * The state {@code thread} settles in, waiting or ended, polled for up to 10 s: a condition
   * waited for, not a pause that a busy machine may outlast. A thread still running after that
   * answers as it is.
   */
  private static Thread.State settledState(Thread thread) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    Thread.State state = thread.getState();
    while (state != Thread.State.WAITING && state != Thread.State.TERMINATED
        && System.nanoTime() - deadline < 0) {
      Thread.sleep(1);
      state = thread.getState();
    }
    return state;
  }

  /** The summary without its total of milliseconds, which depends on the machine. */
  private static String waitedCount() {
    String summary = EngineReadiness.waitSummary();
    int comma = summary.indexOf(',');
    return comma < 0 ? summary : summary.substring(0, comma);
  }

  /** A request reaching a servlet entry point, on a thread of its own. */
  private static final class Request {
    private final Thread thread;
    private final AtomicReference<Object> answer = new AtomicReference<>();

    private Request() {
      thread = new Thread(() -> answer.set(TollgateBridge.enter(0, "req", "res")));
    }

    static Request start() {
      Request request = new Request();
      request.thread.start();
      return request;
    }

    /** Until the request's thread is blocked, waiting for the engine (at most 10 s). */
    void awaitWaiting() throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (thread.getState() != Thread.State.TIMED_WAITING) {
        assertTrue(thread.isAlive(), "the request finished without waiting");
        assertTrue(System.nanoTime() < deadline, "the request never waited");
        Thread.sleep(5);
      }
    }

    /** What the bridge answered (the engine's decision, or null to let it pass). */
    Object answer() throws InterruptedException {
      thread.join(TimeUnit.SECONDS.toMillis(60));
      assertTrue(!thread.isAlive(), "the request is still waiting");
      return answer.get();
    }
  }
}
