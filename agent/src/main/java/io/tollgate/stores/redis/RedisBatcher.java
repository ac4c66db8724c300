package io.tollgate.stores.redis;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * PROTOTYPE (branch h-batch-proto, for an end-to-end measurement only; not tested, not for merge):
 * natural batching of token-bucket decisions. While a batch is in flight on the connection, the
 * decisions that come are queued; when it is answered, everything queued goes out as one call of
 * {@link RedisScript#GCRA_BATCH}. A lone decision goes out at once. Each decision gets its own
 * future, so that {@link RedisBackend}'s deadlines, bulkhead and late-reply ledger see each one as
 * they see a call of its own today.
 */
final class RedisBatcher {

  private static final int MAX_BATCH = 64;

  private final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean inFlight = new AtomicBoolean();

  private static final class Pending {
    final String key;
    final String[] args;
    final Reply reply = new Reply();

    Pending(String key, String[] args) {
      this.key = key;
      this.args = args;
    }
  }

  /** Queues one decision of {@link RedisScript#GCRA} ({@code key}, its {@code args}). */
  RedisFuture<Object> submit(RedisScriptingAsyncCommands<String, String> commands, String key,
      String[] args) {
    Pending pending = new Pending(key, args);
    queue.add(pending);
    sendIfFree(commands);
    return pending.reply;
  }

  private void sendIfFree(RedisScriptingAsyncCommands<String, String> commands) {
    while (!queue.isEmpty() && inFlight.compareAndSet(false, true)) {
      List<Pending> batch = new ArrayList<>();
      for (Pending p; batch.size() < MAX_BATCH && (p = queue.poll()) != null; ) {
        batch.add(p);
      }
      if (batch.isEmpty()) {
        inFlight.set(false);
        continue;
      }
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
        commands.<List<Object>>evalsha(RedisScript.GCRA_BATCH.sha1(), ScriptOutputType.MULTI, keys,
                argv)
            .whenComplete((reply, failure) -> {
              Throwable cause = unwrap(failure);
              if (cause instanceof RedisNoScriptException) {
                commands.<List<Object>>eval(RedisScript.GCRA_BATCH.body(), ScriptOutputType.MULTI,
                        keys, argv)
                    .whenComplete((again, failed) -> answered(commands, batch, again, unwrap(failed)));
                return;
              }
              answered(commands, batch, reply, cause);
            });
      } catch (RuntimeException e) {
        answered(commands, batch, null, e);
      }
      return;
    }
  }

  private void answered(RedisScriptingAsyncCommands<String, String> commands, List<Pending> batch,
      List<Object> reply, Throwable failure) {
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
    inFlight.set(false);
    sendIfFree(commands);
  }

  private static Throwable unwrap(Throwable t) {
    return t instanceof java.util.concurrent.CompletionException && t.getCause() != null
        ? t.getCause() : t;
  }

  /** One decision's reply, as a future of its own. */
  static final class Reply extends CompletableFuture<Object> implements RedisFuture<Object> {
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
