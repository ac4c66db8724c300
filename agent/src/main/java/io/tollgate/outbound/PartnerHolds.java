package io.tollgate.outbound;

import io.tollgate.config.Durations;
import io.tollgate.logging.AgentLog;
import io.tollgate.stores.redis.RedisPartnerHolds;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The waits a partner asked of one outbound rule's keys ({@link PartnerWait}): until when each key's
 * calls are held, on {@link System#nanoTime()}. Each episode (a first wait, or one after the last
 * ended) is logged once, by the instance that learnt it, with the cap when the partner asked for
 * more. On Redis ({@link RedisPartnerHolds}) a wait learnt here is shared with every instance of the
 * rule, and one that another instance learnt is held here from the decision that found it there
 * on, without asking Redis again until it ends.
 */
final class PartnerHolds {

  private final String rule;
  private final long capNanos;
  private final long maxKeys;
  private final ConcurrentHashMap<String, PartnerHold> until = new ConcurrentHashMap<>();
  /** Where the waits are shared: null in this process only. */
  private volatile RedisPartnerHolds shared;

  PartnerHolds(String rule, long capNanos, long maxKeys) {
    this.rule = rule;
    this.capNanos = capNanos;
    this.maxKeys = maxKeys;
  }

  /** Shares the waits through {@code shared} (null: keeps them in this process), from now on. */
  void shareOn(RedisPartnerHolds shared) {
    this.shared = shared;
    if (shared != null) {
      shared.onSeen(this::heldOnRedis);
    }
  }

  /** The {@code nanoTime} until which {@code key}'s calls are held, or 0 when they are not. */
  long heldUntil(String key, long now) {
    PartnerHold hold = until.get(key);
    if (hold == null) {
      return 0;
    }
    if (hold.untilNanos - now <= 0) {
      until.remove(key, hold);
      return 0;
    }
    return hold.untilNanos;
  }

  /**
   * The partner asked {@code key}'s calls to wait {@code waitNanos} from {@code now}; shared with
   * the other instances when {@code share} (not for a shadow rule, which holds nothing).
   */
  void hold(String key, long waitNanos, long now, String destination, int status, boolean share) {
    long honoured = Math.min(waitNanos, capNanos);
    String answer = destination + " answered " + status
        + (status == 429 || status == 503 ? " with Retry-After" : " with no quota left (RateLimit)")
        + ", asking to wait " + Durations.format(waitNanos);
    PartnerHold before = until.get(key);
    boolean newEpisode = before == null || before.untilNanos - now <= 0;
    boolean later = keep(key, new PartnerHold(key, now + honoured,
        System.currentTimeMillis() + honoured / 1_000_000, answer, true), now);
    if (newEpisode) {
      AgentLog.info("outbound rule '" + rule + "': " + answer
          + (honoured < waitNanos
              ? "; waits are honoured up to max-honoured-wait " + Durations.format(capNanos)
                  + ", so calls resume after that"
              : "; calls" + (key.isEmpty() ? "" : " of key '" + key + "'") + " are held until then")
          + (share && shared != null ? " (on every instance: the wait is shared on redis)" : ""));
    }
    RedisPartnerHolds on = shared;
    if (later && share && on != null) {
      on.write(key, now + honoured, answer);
    }
  }

  /** A decision found on Redis a wait that another instance learnt: held here too, not logged. */
  private void heldOnRedis(String key, long leftNanos, String answer) {
    long now = System.nanoTime();
    long left = Math.min(leftNanos, capNanos);
    keep(key, new PartnerHold(key, now + left, System.currentTimeMillis() + left / 1_000_000,
        answer, false), now);
  }

  /** Keeps {@code hold} unless one that ends later is in force; true when it was kept. */
  private boolean keep(String key, PartnerHold hold, long now) {
    if (until.size() >= maxKeys) {
      evictEnded(now);
    }
    return until.merge(key, hold, (a, b) -> b.untilNanos - a.untilNanos > 0 ? b : a) == hold;
  }

  /** The holds in force now, for {@code status}. */
  List<PartnerHold> inForce(long now) {
    List<PartnerHold> holds = new ArrayList<>();
    for (PartnerHold hold : until.values()) {
      if (hold.untilNanos - now > 0) {
        holds.add(hold);
      }
    }
    holds.sort((a, b) -> Long.compare(a.untilNanos - now, b.untilNanos - now));
    return holds;
  }

  private void evictEnded(long now) {
    for (Iterator<Map.Entry<String, PartnerHold>> i = until.entrySet().iterator(); i.hasNext(); ) {
      if (i.next().getValue().untilNanos - now <= 0) {
        i.remove();
      }
    }
    if (until.size() >= maxKeys) {
      until.clear(); // bounded memory before honouring every wait: forgetting one sends early
    }
  }
}
