package io.tollgate.outbound;

import io.tollgate.config.Durations;
import io.tollgate.logging.AgentLog;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The waits a partner asked of one outbound rule's keys ({@link PartnerWait}): until when each key's
 * calls are held, on {@link System#nanoTime()}. Each episode (a first wait, or one after the last
 * ended) is logged once, with the cap when the partner asked for more. Kept in this process: an
 * instance learns its partner's waits from its own calls.
 */
final class PartnerHolds {

  private final String rule;
  private final long capNanos;
  private final long maxKeys;
  private final ConcurrentHashMap<String, Long> until = new ConcurrentHashMap<>();

  PartnerHolds(String rule, long capNanos, long maxKeys) {
    this.rule = rule;
    this.capNanos = capNanos;
    this.maxKeys = maxKeys;
  }

  /** The {@code nanoTime} until which {@code key}'s calls are held, or 0 when they are not. */
  long heldUntil(String key, long now) {
    Long u = until.get(key);
    if (u == null) {
      return 0;
    }
    if (u - now <= 0) {
      until.remove(key, u);
      return 0;
    }
    return u;
  }

  /** The partner asked {@code key}'s calls to wait {@code waitNanos} from {@code now}. */
  void hold(String key, long waitNanos, long now, String destination, int status) {
    long honoured = Math.min(waitNanos, capNanos);
    long end = now + honoured;
    if (until.size() >= maxKeys) {
      evictEnded(now);
    }
    Long before = until.get(key);
    boolean newEpisode = before == null || before - now <= 0;
    until.merge(key, end, (a, b) -> b - a > 0 ? b : a);
    if (newEpisode) {
      AgentLog.info("outbound rule '" + rule + "': " + destination + " answered " + status
          + (status == 429 || status == 503 ? " with Retry-After" : " with no quota left (RateLimit)")
          + ", asking to wait " + Durations.format(waitNanos)
          + (honoured < waitNanos
              ? "; waits are honoured up to max-honoured-wait " + Durations.format(capNanos)
                  + ", so calls resume after that"
              : "; calls" + (key.isEmpty() ? "" : " of key '" + key + "'") + " are held until then"));
    }
  }

  private void evictEnded(long now) {
    for (Iterator<Map.Entry<String, Long>> i = until.entrySet().iterator(); i.hasNext(); ) {
      if (i.next().getValue() - now <= 0) {
        i.remove();
      }
    }
    if (until.size() >= maxKeys) {
      until.clear(); // bounded memory before honouring every wait: forgetting one sends early
    }
  }
}
