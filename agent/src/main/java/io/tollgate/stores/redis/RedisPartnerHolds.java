package io.tollgate.stores.redis;

import io.tollgate.logging.RateLimitedLog;
import io.tollgate.stores.LimiterStore;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The waits partners asked of one outbound rule's keys, on Redis, so that every instance sharing
 * the rule holds the calls that one of them was asked to hold ({@code partner-hold.lua}).
 *
 * <p>Written in the background ({@link RedisBackend#evalInBackground}): the thread that read the
 * partner's answer is the application's, and a slow Redis must not hold it; the instance that
 * learnt the wait holds its own calls at once anyway. Read in the call that decides the rule's
 * first budget ({@code budgets.lua}'s {@code KEYS[2]}): no round trip more per call. A hold seen
 * there is handed to {@link Seen}, so that the instance holds the key on its own until the wait
 * ends, without asking Redis again. A write that could not be sent (Redis not connected, or
 * thought down by the circuit breaker after a few slow replies) is tried again once the breaker
 * lets calls through, for as long as the wait is in force; until then each instance holds what it
 * learnt itself, and a decision applies the rule's {@code on-failure}, as for any call on Redis.
 */
public final class RedisPartnerHolds {

  /** Told of a hold a decision found on Redis. */
  public interface Seen {
    /** {@code key}'s calls are held {@code leftNanos} more, as the partner answered {@code answer}. */
    void heldOnRedis(String key, long leftNanos, String answer);
  }

  private static final RateLimitedLog WRITE_FAILURES = new RateLimitedLog(60_000);
  /** How soon a write that was not sent is tried again, at the earliest. */
  private static final long RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
  /** The longest wait the scripts take (2^52 ns, about 52 days): past it, they clamp. */
  private static final long MAX_WAIT_NANOS = RedisAlgorithmStore.LUA_PERIOD_MAX;

  private final RedisBackend backend;
  /** The rule's name as its stores name it on Redis ({@code outbound.NAME}). */
  private final String ruleName;
  private volatile Seen seen = (key, left, answer) -> {};
  /**
   * The keys whose write is under way, each with the wait to write after it ({@link #NONE}: none
   * yet); guarded by {@code this}. Writes are rare (a partner's refusals), so a lock is enough.
   */
  private final Map<String, Pending> underWay = new HashMap<>();

  private static final class Pending {
    final long untilNanos;
    final String answer;

    Pending(long untilNanos, String answer) {
      this.untilNanos = untilNanos;
      this.answer = answer;
    }
  }

  private static final Pending NONE = new Pending(0, "");

  public RedisPartnerHolds(RedisBackend backend, String ruleName) {
    this.backend = backend;
    this.ruleName = ruleName;
  }

  /** Who is told of the holds the decisions find. */
  public void onSeen(Seen seen) {
    this.seen = seen;
  }

  /**
   * Has {@code store} (an outbound rule's budget on Redis, behind its failure policy) read these
   * holds in its decisions; a store in this process reads none.
   */
  public void readBy(LimiterStore store) {
    if (store instanceof FailurePolicyStore) {
      ((FailurePolicyStore) store).primary().readPartnerHolds(this);
    }
  }

  /**
   * Holds {@code key}'s calls on every instance until {@code untilNanos} (this JVM's {@link
   * System#nanoTime()}), the partner having answered {@code answer}. Returns at once; writes for
   * one key are sent one at a time, the latest wait after the one under way.
   */
  public void write(String key, long untilNanos, String answer) {
    Pending hold = new Pending(untilNanos, answer);
    synchronized (this) {
      if (underWay.containsKey(key)) {
        Pending next = underWay.get(key);
        if (next == NONE || hold.untilNanos - next.untilNanos > 0) {
          underWay.put(key, hold);
        }
        return;
      }
      underWay.put(key, NONE);
    }
    send(key, hold);
  }

  private void send(String key, Pending hold) {
    long wait = Math.min(MAX_WAIT_NANOS, hold.untilNanos - System.nanoTime());
    if (wait <= 0 || backend == null) {
      afterWrite(key);
      return;
    }
    backend.evalInBackground(RedisScript.PARTNER_HOLD, RedisKeys.partnerHoldKey(ruleName, key),
        new String[] {Long.toString(wait), hold.answer, ""}, true,
        (reply, failure) -> {
          if (failure instanceof BackendUnavailableException && sendLater(key, hold)) {
            return; // not sent (the circuit breaker open, not connected): tried again later
          }
          if (failure != null) {
            WRITE_FAILURES.warn(ruleName, () -> "outbound rule '"
                + ruleName.substring(ruleName.indexOf('.') + 1) + "': the partner's wait was not"
                + " shared on redis (" + failure.getMessage() + "); this instance holds its calls,"
                + " the others do not know of it (further failures within a minute are not"
                + " logged)");
          }
          afterWrite(key);
        });
  }

  /**
   * Sends {@code hold} again once the circuit breaker lets calls try Redis (at least {@link
   * #RETRY_NANOS} from now), while the wait is still in force: a wait learnt while Redis was
   * thought down (a few slow replies open the breaker) still reaches the other instances once it
   * answers. False when it cannot be scheduled (the backend closed).
   */
  private boolean sendLater(String key, Pending hold) {
    long delay = Math.max(RETRY_NANOS, backend.breakerOpenForNanos());
    if (hold.untilNanos - System.nanoTime() - delay <= 0) {
      return false;
    }
    try {
      backend.scheduler().schedule(() -> send(key, hold), delay, TimeUnit.NANOSECONDS);
      return true;
    } catch (RejectedExecutionException e) {
      return false;
    }
  }

  /** Sends the wait that came while the last write was under way, if one did. */
  private void afterWrite(String key) {
    Pending next;
    synchronized (this) {
      next = underWay.get(key);
      if (next == null || next == NONE) {
        underWay.remove(key);
        return;
      }
      underWay.put(key, NONE);
    }
    send(key, next);
  }

  /** The hash a decision of {@code key} reads: {@code budgets.lua}'s {@code KEYS[2]}. */
  String keyOf(String clientKey) {
    return RedisKeys.partnerHoldKey(ruleName, clientKey);
  }

  /**
   * Whether {@code flat}, a decision's reply, is {@code budgets.lua}'s hold: then {@link Seen} is
   * told, and the caller refuses for the wait left.
   */
  long heldIn(String clientKey, List<Object> flat) {
    if (flat == null || flat.size() < 2 || !Long.valueOf(-3).equals(flat.get(0))
        || !(flat.get(1) instanceof Long)) {
      return 0;
    }
    long left = Math.max(1, (Long) flat.get(1));
    String answer = flat.size() > 2 && flat.get(2) != null ? String.valueOf(flat.get(2)) : "";
    seen.heldOnRedis(clientKey, left, answer);
    return left;
  }
}
