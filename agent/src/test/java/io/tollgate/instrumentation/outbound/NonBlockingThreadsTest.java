package io.tollgate.instrumentation.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Which threads a call may wait on: not Reactor's non-blocking ones (its parallel scheduler's,
 * Reactor Netty's event loops), where a {@code WebClient} call subscribed there is sent; any other.
 */
class NonBlockingThreadsTest {

  private static final class Call extends OutboundDestination {
    Call() {
      super("GET", "http", "partner.example", -1, "/orders");
    }

    @Override
    public String header(String name) {
      return null;
    }
  }

  @Test
  void aCallMayWaitOnAnOrdinaryThreadAndOnReactorsBoundedElasticOne() throws Exception {
    assertEquals(true, new Call().mayWait());
    assertEquals(true, readOn(Schedulers.boundedElastic()));
  }

  @Test
  void aCallMayNotWaitOnReactorsNonBlockingThreads() throws Exception {
    assertEquals(false, readOn(Schedulers.parallel()));
    assertEquals(false, readOn(Schedulers.single()));
  }

  private static boolean readOn(Scheduler scheduler) throws Exception {
    CompletableFuture<Boolean> mayWait = new CompletableFuture<>();
    scheduler.schedule(() -> mayWait.complete(new Call().mayWait()));
    return mayWait.get(1, TimeUnit.MINUTES);
  }
}
