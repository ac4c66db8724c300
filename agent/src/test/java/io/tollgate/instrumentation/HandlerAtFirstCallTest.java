package io.tollgate.instrumentation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.tollgate.agent.FrameworkModules;
import io.tollgate.engine.TollgateGate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A module whose handler is made at its first call ({@link FrameworkModule#handlerAtFirstCall}):
 * the dispatch makes it then, once, and hands it every call; the other modules' handlers are made
 * with the dispatch, as before.
 */
class HandlerAtFirstCallTest {

  private static final int MADE_WITH_THE_DISPATCH = 0;
  private static final int MADE_AT_FIRST_CALL = 1;

  @Test
  void theHandlerIsMadeAtTheFirstCallOfItsEntryPointsThenCalledAsTheModulesOwn() throws Exception {
    CountingModule eager = new CountingModule(false);
    CountingModule atFirstCall = new CountingModule(true);
    EntryPointDispatch dispatch = new EntryPointDispatch(List.of(eager, atFirstCall), null);

    assertEquals(1, eager.made.get(), "an inbound framework's handler: made with the engine");
    assertEquals(0, atFirstCall.made.get(), "an outbound client's: not before its first call");

    assertEquals("scope", dispatch.enter(MADE_AT_FIRST_CALL, "first", "second"));
    dispatch.exit(MADE_AT_FIRST_CALL, "scope", null);
    assertEquals("result!", dispatch.returned(MADE_AT_FIRST_CALL, "scope", "result"));
    dispatch.enter(MADE_WITH_THE_DISPATCH, "first", "second");

    assertEquals(1, atFirstCall.made.get());
    assertEquals(List.of("enter first second", "exit scope", "returned scope result"),
        atFirstCall.calls);
    assertEquals(1, eager.made.get());
  }

  @Test
  void firstCallsAtTheSameTimeMakeOneHandler() throws Exception {
    CountingModule atFirstCall = new CountingModule(true);
    EntryPointDispatch dispatch =
        new EntryPointDispatch(List.of(new CountingModule(false), atFirstCall), null);
    int threads = 8;
    CountDownLatch ready = new CountDownLatch(threads);
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Object>> entered = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        entered.add(pool.submit((Callable<Object>) () -> {
          ready.countDown();
          go.await();
          return dispatch.enter(MADE_AT_FIRST_CALL, "first", "second");
        }));
      }
      ready.await();
      go.countDown();
      for (Future<Object> f : entered) {
        assertEquals("scope", f.get());
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(1, atFirstCall.made.get());
    assertEquals(threads, atFirstCall.calls.size());
  }

  @Test
  void aHandlerThatCannotBeMadeLetsTheCallPassAndIsTriedAgainAtTheNext() throws Exception {
    CountingModule failingOnce = new CountingModule(true);
    failingOnce.failuresLeft.set(1);
    EntryPointDispatch dispatch = new EntryPointDispatch(List.of(failingOnce), null);

    assertEquals(null, dispatch.enter(0, "first", "second"), "reported, and the request passes");
    assertEquals("scope", dispatch.enter(0, "first", "second"));
    assertEquals(1, failingOnce.made.get());
  }

  @Test
  void theOutboundClientsHandlersAreMadeAtTheirFirstCallAndNoInboundFrameworks() {
    List<String> atFirstCall = new ArrayList<>();
    for (FrameworkModule module : FrameworkModules.all()) {
      if (module.handlerAtFirstCall()) {
        atFirstCall.add(module.getClass().getSimpleName());
      }
    }
    assertEquals(List.of("JdkHttpClientModule", "UrlConnectionModule", "Apache4Module",
        "Apache5Module", "OkHttpModule", "Apache5AsyncModule"), atFirstCall);
  }

  /** A module that counts the handlers it makes, whose handler records its calls. */
  private static final class CountingModule implements FrameworkModule {
    final boolean atFirstCall;
    final AtomicInteger made = new AtomicInteger();
    final AtomicInteger failuresLeft = new AtomicInteger();
    final List<String> calls = Collections.synchronizedList(new ArrayList<>());

    CountingModule(boolean atFirstCall) {
      this.atFirstCall = atFirstCall;
    }

    @Override
    public List<EntryPointMethod> entryPoints() {
      return List.of();
    }

    @Override
    public boolean handlerAtFirstCall() {
      return atFirstCall;
    }

    @Override
    public EntryPointHandler handler(TollgateGate engine) {
      if (failuresLeft.getAndDecrement() > 0) {
        throw new IllegalStateException("cannot make the handler yet");
      }
      made.incrementAndGet();
      return new EntryPointHandler() {
        @Override
        public Object enter(Object first, Object second) {
          calls.add("enter " + first + " " + second);
          return "scope";
        }

        @Override
        public void exit(Object scope, Throwable thrown) {
          calls.add("exit " + scope);
        }

        @Override
        public Object returned(Object scope, Object result) {
          calls.add("returned " + scope + " " + result);
          return result + "!";
        }
      };
    }

    @Override
    public String requestName() {
      return "a counted call";
    }
  }
}
