package io.tollgate.stores.redis;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Whether this JVM has read what Redis sent: a reply is late only once the connection's event loop
 * has run since the moment it was due. Lettuce reads replies, completes their futures and notes
 * Redis as answering on its Netty event loop; a request thread only waits. On a host starved of
 * CPU the two do not run together: the request threads wake and time out while the loop has not
 * run, the replies waiting unread in the socket, so "nothing read" is this JVM's silence, not
 * Redis's. Counting it as Redis's let a starved instance's share bet a grant's {@code remaining}
 * the instances answered in time had already spent (L-6, L-11 and h-quota's D-20of1000-2: bets
 * decided 876-992 ms after their calls were sent, on a 50 ms timeout; BENCHMARKS.md section 7).
 *
 * <p>So before a request thread concludes that its reply is late, or that Redis is silent, it asks
 * {@link #ranSince}: has every event loop of the connection run a pass begun after that moment? If
 * not, it sends a barrier through each loop and waits for it, bounded: a task that, once run on
 * the loop, schedules a second; Netty runs the second only at the start of a later pass, after a
 * select and the reading of every channel found ready (a task scheduled from the loop is taken into
 * the task queue only when a pass begins; one executed from outside might run in the current
 * batch of tasks, before any read). When it has run, a reply that was in the socket at the first
 * task has been read and its future completed, and the thread looks at its future again.
 *
 * <p>Why a barrier and not an estimate: a heartbeat's last tick needs a period and a guess of how
 * late a tick may be, and a request thread's own lateness says only that it ran late, not whether
 * the loop read meanwhile (L-11's threads ran while nothing was read for a second). The barrier
 * asks the one question that matters, and a loop that runs answers it in one pass (microseconds on
 * a quiet host). One barrier at a time per loop: the threads due at about the same moment share
 * it, and a barrier already past its bound answers "not run" at once, so a stalled loop costs each
 * thread at most the bound once, not a bound per thread in turn.
 *
 * <p>The bound is the caller's (the decision's {@code timeout}, {@link RedisBackend}). A loop that
 * has not run within it: the silence is this JVM's, and Redis is not counted silent for that
 * decision ({@link RedisBackend#hearing}: {@link RedisHearing#NOT_LISTENING}), so the local share
 * does not bet on it: the ledger holds the call, whose token, if Redis grants it, becomes a credit
 * ({@link LateReplyLedger}). A Redis really silent ({@code kill -STOP}, every reply 10 s
 * late) leaves the loop free: the barrier passes at once and the shares decide as before.
 *
 * <p>Loops are learned from Lettuce's {@code NettyCustomizer} as channels are made (a cluster's
 * node connections, a reconnect's new channel): at most the client's I/O threads (2). A loop the
 * caller itself runs on passes at once (it cannot wait for itself).
 */
final class EventLoopBarrier {

  /** One barrier through one loop: armed when its first task runs, passed when its second does. */
  private static final class Round {
    final long submittedAt;
    /** When the first task ran on the loop ({@link System#nanoTime}); 0 until then. */
    volatile long armedAt;
    final CountDownLatch passed = new CountDownLatch(1);

    Round(long submittedAt) {
      this.submittedAt = submittedAt;
    }

    boolean hasPassed() {
      return passed.getCount() == 0;
    }
  }

  /** One loop's barrier under way, and when the last one that passed was armed. */
  private static final class Loop {
    final EventLoop loop;
    final AtomicReference<Round> current = new AtomicReference<>();
    /** {@link Round#armedAt} of the latest round passed: a full pass began after it. */
    volatile long lastArmedPassed;
    volatile boolean anyPassed;

    Loop(EventLoop loop) {
      this.loop = loop;
    }
  }

  private final ConcurrentHashMap<EventLoop, Loop> loops = new ConcurrentHashMap<>();
  /** Threads waiting for a barrier now: for tests that release a loop they occupy. */
  private final AtomicInteger waiting = new AtomicInteger();

  /** Called by Lettuce's {@code NettyCustomizer} for every channel the client makes. */
  void channelInitialized(Channel channel) {
    EventLoop loop = channel.eventLoop();
    if (loop != null) {
      loops.computeIfAbsent(loop, Loop::new);
    }
  }

  /** Threads waiting for a loop to run now (for tests). */
  int waiting() {
    return waiting.get();
  }

  /** The loops known: for tests that occupy them. */
  Set<EventLoop> loops() {
    return loops.keySet();
  }

  /**
   * Whether every known event loop has run a pass (a select and its reads) begun after {@code
   * sinceNanos} ({@link System#nanoTime}), waiting at most {@code boundNanos} for it; false when a
   * loop has not within the bound (the caller's silence is this JVM's). True with no loop known
   * yet (no channel made: nothing to read) and on the loop itself.
   */
  boolean ranSince(long sinceNanos, long boundNanos) {
    long start = System.nanoTime();
    boolean ran = true;
    boolean waited = false;
    for (Loop loop : loops.values()) {
      int outcome = ranSince(loop, sinceNanos, start + boundNanos, boundNanos);
      waited |= outcome != PASSED_BEFORE;
      if (outcome == NOT_RUN) {
        ran = false;
        break;
      }
    }
    if (waited && LateReplyTrace.ON) {
      DecisionPathTrace.countBarrier(System.nanoTime() - start, ran);
    }
    return ran;
  }

  private static final int PASSED_BEFORE = 0;
  private static final int PASSED_NOW = 1;
  private static final int NOT_RUN = 2;

  private int ranSince(Loop loop, long since, long waitUntil, long bound) {
    if (loop.loop.inEventLoop()) {
      return PASSED_BEFORE;
    }
    boolean waited = false;
    while (true) {
      if (loop.anyPassed && loop.lastArmedPassed - since >= 0) {
        return waited ? PASSED_NOW : PASSED_BEFORE;
      }
      waited = true;
      Round round = loop.current.get();
      long now = System.nanoTime();
      if (round == null || round.hasPassed()
          || (round.armedAt != 0 && round.armedAt - since < 0)) {
        // None under way, or one armed before the moment asked about: a new one.
        Round fresh = new Round(now);
        if (!loop.current.compareAndSet(round, fresh)) {
          continue;
        }
        if (!submit(loop, fresh)) {
          return PASSED_BEFORE; // the loop is shut down (the client closing): nothing to wait for
        }
        round = fresh;
      }
      // A round under way (not armed yet, or armed after the moment): wait for it, but no longer
      // than its own bound: one that has not run since it was sent says the loop is stalled now.
      long ownBound = round.submittedAt + bound;
      long until = ownBound - waitUntil < 0 ? ownBound : waitUntil;
      long left = until - System.nanoTime();
      if (left <= 0) {
        return NOT_RUN;
      }
      waiting.incrementAndGet();
      try {
        if (!round.passed.await(left, TimeUnit.NANOSECONDS)) {
          return NOT_RUN;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return NOT_RUN;
      } finally {
        waiting.decrementAndGet();
      }
    }
  }

  private static boolean submit(Loop loop, Round round) {
    try {
      loop.loop.execute(() -> {
        round.armedAt = System.nanoTime() | 1;
        // From the loop, a scheduled task waits for the next pass's start (after its select and
        // reads); executed, it could run in this very batch of tasks.
        loop.loop.schedule(() -> {
          if (!loop.anyPassed || round.armedAt - loop.lastArmedPassed > 0) {
            loop.lastArmedPassed = round.armedAt;
          }
          loop.anyPassed = true;
          round.passed.countDown();
        }, 0, TimeUnit.NANOSECONDS);
      });
      return true;
    } catch (RejectedExecutionException e) {
      return false;
    }
  }
}
