package io.tollgate.stores.redis;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Natural batching of token-bucket decisions on one connection. A decision that comes while fewer
 * than {@code window} calls of it are in flight goes out at once, with whatever is queued; one
 * that comes while {@code window} are in flight is queued, and goes out with the others queued
 * meanwhile as one call of {@link #GCRA_BATCH} when a call in flight is answered. No
 * timer: nothing waits to be batched, a lone decision is a call of its own.
 *
 * <p>Why a window and not one call at a time: with a single call in flight, every decision that
 * came meanwhile waits for the whole round trip plus the client's I/O thread getting the CPU to
 * read the reply and send the next call; on a saturated host that thread shares a core with the
 * application's threads, and the decisions' p99 was 71-81 ms against 7.5-31 ms without batching
 * (BENCHMARKS.md, section 3, h-batch). A few calls in flight keep the connection busy while the
 * I/O thread waits for the CPU.
 *
 * <p>Each decision gets its own future, so that {@link RedisBackend}'s deadlines, bulkhead and
 * late-reply ledger see it exactly as they see a call of its own: a decision still queued when its
 * deadline passes is decided by its rule's failure policy, and goes out later all the same (its
 * count lands, as a late single call's does).
 *
 * <p><b>The window holds decisions back only while its calls are answered.</b> Once the oldest
 * call in flight has waited longer than {@code lateAfter} (a quarter of the decisions' {@code
 * timeout}), a decision goes out at once, with whatever is queued, however many calls are in
 * flight: while Redis's replies are late, every decision is a call of its own again, as without
 * batching. Held behind late calls, decisions reached Redis one reply delay late, and at most
 * {@code window x 64} of them per reply delay: with every reply 1 s late the queue grew until the
 * backend's cap on outstanding decisions sent no more ({@link RedisFailure#BUSY}: 1,794-8,485
 * decisions of a flood never sent, per instance), and with replies 200 ms late the tokens Redis
 * granted to held calls went round the instances a reply delay and a queue's wait at a time, 14-30
 * of them still on the way when the flood ended: 70-86 admitted of a limit of 100, against 99-100
 * with a call per decision (BENCHMARKS.md, section 7, h-batch3). A request thread whose decision
 * is still queued at its own timeout sends it ({@link Reply#sendIfLate}), so no decision waits in
 * the queue past it.
 */
final class RedisBatcher {

  private static final int MAX_BATCH = 64;

  /**
   * {@link RedisScript#GCRA}'s decisions, several in one call. Here and not beside the other
   * scripts, so that it is read and hashed only where decisions are batched (off by default).
   */
  static final RedisScript GCRA_BATCH = RedisScript.batchOverBudgets("gcra.lua");

  private final int window;
  /** How long the oldest call may be in flight before the window stops holding decisions back. */
  private final LongSupplier lateAfterNanos;
  private final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();
  /** Calls sent and not answered. */
  private final AtomicInteger inFlight = new AtomicInteger();
  /**
   * When each call in flight was sent, oldest first (replies on one connection come in order, so
   * the one answered is almost always the head).
   */
  private final ConcurrentLinkedQueue<Sent> sentOrder = new ConcurrentLinkedQueue<>();
  private final LongAdder calls = new LongAdder();
  private final LongAdder decisions = new LongAdder();

  /**
   * At most {@code window} calls in flight at once while the oldest of them has waited less than
   * {@code lateAfterNanos} ({@link System#nanoTime}); any number past it.
   */
  RedisBatcher(int window, LongSupplier lateAfterNanos) {
    if (window < 1) {
      throw new IllegalArgumentException("window must be at least 1: " + window);
    }
    this.window = window;
    this.lateAfterNanos = lateAfterNanos;
  }

  /** Calls sent so far (each one decision or several). */
  long calls() {
    return calls.sum();
  }

  /** Decisions sent so far. */
  long decisions() {
    return decisions.sum();
  }

  private static final class Pending {
    final String key;
    final String[] args;
    final Reply reply;

    Pending(String key, String[] args, Reply reply) {
      this.key = key;
      this.args = args;
      this.reply = reply;
    }
  }

  /** One call in flight: when it was sent. */
  private static final class Sent {
    final long at;

    Sent(long at) {
      this.at = at;
    }
  }

  /** Queues one decision of {@link RedisScript#GCRA} ({@code key}, its {@code args}). */
  RedisFuture<Object> submit(RedisScriptingAsyncCommands<String, String> commands, String key,
      String[] args) {
    Pending pending = new Pending(key, args, new Reply(this, commands));
    queue.add(pending);
    sendIfFree(commands);
    return pending.reply;
  }

  /** Whether the oldest call in flight has waited past {@code lateAfter}: Redis answers late. */
  private boolean windowLate() {
    Sent oldest = sentOrder.peek();
    return oldest != null && System.nanoTime() - oldest.at >= lateAfterNanos.getAsLong();
  }

  private void sendIfFree(RedisScriptingAsyncCommands<String, String> commands) {
    // Whoever queues a decision or ends a call looks again after: no decision is left queued
    // while fewer than window calls are in flight, or while the oldest of them is late.
    while (!queue.isEmpty()) {
      int now = inFlight.get();
      if (now >= window && !windowLate()) {
        return;
      }
      if (!inFlight.compareAndSet(now, now + 1)) {
        continue;
      }
      List<Pending> batch = new ArrayList<>();
      for (Pending p; batch.size() < MAX_BATCH && (p = queue.poll()) != null; ) {
        batch.add(p);
      }
      if (batch.isEmpty()) {
        inFlight.decrementAndGet();
        continue;
      }
      // Noted before it is sent: its reply may come (and be handled) before send returns.
      Sent sent = new Sent(System.nanoTime());
      sentOrder.add(sent);
      calls.increment();
      decisions.add(batch.size());
      String[] keys = new String[batch.size()];
      int length = 0;
      for (Pending p : batch) {
        length += 1 + p.args.length;
      }
      String[] argv = new String[length];
      int at = 0;
      for (int i = 0; i < keys.length; i++) {
        Pending p = batch.get(i);
        keys[i] = p.key;
        argv[at++] = Integer.toString(p.args.length);
        System.arraycopy(p.args, 0, argv, at, p.args.length);
        at += p.args.length;
      }
      try {
        commands.<List<Object>>evalsha(GCRA_BATCH.sha1(), ScriptOutputType.MULTI, keys,
                argv)
            .whenComplete((reply, failure) -> {
              Throwable cause = unwrap(failure);
              if (cause instanceof RedisNoScriptException) {
                // Not cached on this node (restart, failover, SCRIPT FLUSH): EVAL loads it again.
                try {
                  commands.<List<Object>>eval(GCRA_BATCH.body(),
                          ScriptOutputType.MULTI, keys, argv)
                      .whenComplete((again, failed) ->
                          answered(commands, sent, batch, again, unwrap(failed)));
                } catch (RuntimeException e) {
                  answered(commands, sent, batch, null, e);
                }
                return;
              }
              answered(commands, sent, batch, reply, cause);
            });
      } catch (RuntimeException e) {
        answered(commands, sent, batch, null, e);
      }
    }
  }

  private void answered(RedisScriptingAsyncCommands<String, String> commands, Sent sent,
      List<Pending> batch, List<Object> reply, Throwable failure) {
    try {
      split(batch, reply, failure);
    } catch (RuntimeException e) {
      // A reply not of batch.lua's shape: every decision still open fails (its rule's policy),
      // none is left waiting, and the window's place is given back below.
      for (Pending p : batch) {
        p.reply.completeExceptionally(e);
      }
    } finally {
      sentOrder.remove(sent);
      inFlight.decrementAndGet();
      sendIfFree(commands);
    }
  }

  /** Each decision its own part of the call's reply (or the call's failure). */
  private static void split(List<Pending> batch, List<Object> reply, Throwable failure) {
    int pos = 0;
    for (Pending p : batch) {
      if (failure != null || reply == null) {
        p.reply.completeExceptionally(failure != null ? failure
            : new RedisCommandExecutionException("tollgate: no reply to a batch"));
        continue;
      }
      int length = ((Number) reply.get(pos)).intValue();
      if (length < 0) {
        p.reply.completeExceptionally(
            new RedisCommandExecutionException(String.valueOf(reply.get(pos + 1))));
        pos += 2;
        continue;
      }
      p.reply.complete(new ArrayList<>(reply.subList(pos + 1, pos + 1 + length)));
      pos += 1 + length;
    }
  }

  private static Throwable unwrap(Throwable t) {
    return t instanceof CompletionException && t.getCause() != null
        ? t.getCause() : t;
  }

  /** One decision's reply, as a future of its own. */
  static final class Reply extends CompletableFuture<Object> implements RedisFuture<Object> {
    private final RedisBatcher batcher;
    private final RedisScriptingAsyncCommands<String, String> commands;

    Reply(RedisBatcher batcher, RedisScriptingAsyncCommands<String, String> commands) {
      this.batcher = batcher;
      this.commands = commands;
    }

    /**
     * The decision's own timeout has passed: if it is still queued behind a window of calls
     * sent before it, they are late ({@code lateAfter} is less than the timeout), and it goes out
     * now with whatever is queued rather than wait for a reply or for the next decision to come.
     */
    void sendIfLate() {
      if (!isDone()) {
        batcher.sendIfFree(commands);
      }
    }

    @Override
    public String getError() {
      if (!isCompletedExceptionally()) {
        return null;
      }
      try {
        get();
        return null;
      } catch (ExecutionException e) {
        return String.valueOf(e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
    }

    @Override
    public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
      try {
        get(timeout, unit);
        return true;
      } catch (ExecutionException e) {
        return true;
      } catch (TimeoutException e) {
        return false;
      }
    }
  }
}
