package io.tollgate.instrumentation.outbound.jdkhttp;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The future a refused {@code sendAsync} returns: never already failed when returned, but failed
 * as the client's own failures arrive, while the app waits for it ({@code get}, {@code join}), or
 * else a moment later on a thread of the agent's. An app chains on the future as soon as it has
 * it, and a chain on a future already failed runs at once, inside the app's own call: CXF's {@code
 * HttpClientHTTPConduit} closes its stream in such a chain ({@code exceptionally}), re-entering its
 * half-built call, and its {@code async()} invocations then never complete. A failure that races
 * the rest of CXF's send does the same; one that arrives while CXF waits for the response does
 * not.
 */
final class RefusedFuture<T> extends CompletableFuture<T> {

  /** When a future nobody waits for fails (an app that only chains on it). */
  static final long FAILS_AFTER_MILLIS = 100;

  private static final AtomicInteger THREADS = new AtomicInteger();
  private static final ThreadFactory DAEMONS = runnable -> {
    Thread thread = new Thread(runnable, "tollgate-refused-call-" + THREADS.incrementAndGet());
    thread.setDaemon(true);
    return thread;
  };
  /**
   * As the JDK client's default executor: a thread per failure at once, kept 30 s; the app's
   * chains run on it and may block it, so none waits behind another.
   */
  private static final Executor FAILING = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30,
      TimeUnit.SECONDS, new SynchronousQueue<>(), DAEMONS);
  /** Only hands each due failure to {@link #FAILING}. */
  private static final ScheduledExecutorService TIMER = timer();

  private final Throwable refusal;

  private RefusedFuture(Throwable refusal) {
    this.refusal = refusal;
  }

  private static ScheduledExecutorService timer() {
    ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, DAEMONS);
    timer.setRemoveOnCancelPolicy(true);
    return timer;
  }

  /** A future that fails with {@code refusal} when waited for, or shortly after it is returned. */
  static <T> CompletableFuture<T> failingWith(Throwable refusal) {
    RefusedFuture<T> future = new RefusedFuture<>(refusal);
    TIMER.schedule(() -> FAILING.execute(future::fail), FAILS_AFTER_MILLIS, TimeUnit.MILLISECONDS);
    return future;
  }

  private void fail() {
    completeExceptionally(refusal);
  }

  @Override
  public T get() throws InterruptedException, ExecutionException {
    fail();
    return super.get();
  }

  @Override
  public T get(long timeout, TimeUnit unit)
      throws InterruptedException, ExecutionException, TimeoutException {
    fail();
    return super.get(timeout, unit);
  }

  @Override
  public T join() {
    fail();
    return super.join();
  }

  /** The futures chained on this one are the JDK's own: they fail when it does. */
  @Override
  public <U> CompletableFuture<U> newIncompleteFuture() {
    return new CompletableFuture<>();
  }
}
