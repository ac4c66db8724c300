package io.tollgate.instrumentation.outbound.jdkhttp;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The future a refused {@code sendAsync} returns: failed on a thread of the agent's, as the client
 * fails its own futures on its executor, not already failed when returned. An app chains on the
 * future as soon as it has it, and a chain on a future already failed runs at once, inside the
 * app's own call: CXF's {@code HttpClientHTTPConduit} closes its stream in such a chain ({@code
 * exceptionally}), re-entering its own half-built call, and its {@code async()} invocations then
 * never complete. Failed a moment later, the chain runs where the client would run it.
 */
final class RefusedFuture {

  private static final AtomicInteger THREADS = new AtomicInteger();

  /**
   * As the JDK client's default executor: a thread per failure at once, kept 30 s, daemon; the
   * app's chains run on it and may block it, so none waits behind another.
   */
  private static final Executor FAILING = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30,
      TimeUnit.SECONDS, new SynchronousQueue<>(), runnable -> {
        Thread thread = new Thread(runnable,
            "tollgate-refused-call-" + THREADS.incrementAndGet());
        thread.setDaemon(true);
        return thread;
      });

  private RefusedFuture() {}

  /** A future that fails with {@code refusal} on another thread, soon after it is returned. */
  static <T> CompletableFuture<T> failingWith(Throwable refusal) {
    CompletableFuture<T> future = new CompletableFuture<>();
    FAILING.execute(() -> future.completeExceptionally(refusal));
    return future;
  }
}
