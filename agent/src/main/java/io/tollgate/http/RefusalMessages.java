package io.tollgate.http;

import io.tollgate.limiters.QuotaPolicy;

/**
 * The refusals a {@link RefusalBody} answered lately, whole (status, headers, body), so that the
 * refusals of a flood, which share the rule, the {@code Retry-After} of the second, the kind of
 * client and the quota headers ({@code r=0} and the same {@code t}), are one value and cost no
 * allocation: a refused request should cost no more than an allowed one (issue 29 item 6).
 *
 * <p>Direct-mapped, {@value #SLOTS} slots, each holding the last value whose key falls on it; a
 * collision only builds a value again. No lock, so no refusal of a rule waits for another: a slot
 * is a plain array element holding an immutable {@link Slot} (final fields, so a thread that reads
 * it sees it whole), and two threads that build the same value at once both write it, harmlessly.
 */
final class RefusalMessages {

  /** A power of two: a few rules sharing the default body, each with a few seconds. */
  static final int SLOTS = 32;

  private final Slot[] slots = new Slot[SLOTS];

  /**
   * The value kept for this key whose quota headers are the first {@code quotaLength} entries of
   * {@code quota} (names and values alternating), or null.
   */
  RefusalMessage find(int kind, boolean outage, String ruleName, long retryAfterSeconds,
      QuotaPolicy policy, String[] quota, int quotaLength) {
    Slot slot = slots[slot(kind, outage, ruleName, retryAfterSeconds)];
    return slot != null
        && slot.is(kind, outage, ruleName, retryAfterSeconds, policy)
        && slot.message.startsWith(quota, quotaLength)
        ? slot.message
        : null;
  }

  /** Keeps {@code message} as the value of this key, in place of whatever shared its slot. */
  RefusalMessage keep(int kind, boolean outage, String ruleName, long retryAfterSeconds,
      QuotaPolicy policy, RefusalMessage message) {
    if (message.body().length <= RefusalBodyCache.MAX_CACHED_BYTES) {
      slots[slot(kind, outage, ruleName, retryAfterSeconds)] =
          new Slot(kind, outage, ruleName, retryAfterSeconds, policy, message);
    }
    return message;
  }

  private static int slot(int kind, boolean outage, String ruleName, long retryAfterSeconds) {
    int h = ruleName.hashCode();
    h = 31 * h + Long.hashCode(retryAfterSeconds);
    h = 31 * h + kind * 2 + (outage ? 1 : 0);
    h ^= h >>> 16; // spread the high bits down: retry-after values differ in the low ones
    return h & (SLOTS - 1);
  }

  /** One kept value and the key it was built for. */
  private static final class Slot {
    final int kind;
    final boolean outage;
    final String ruleName;
    final long retryAfterSeconds;
    final QuotaPolicy policy;
    final RefusalMessage message;

    Slot(int kind, boolean outage, String ruleName, long retryAfterSeconds, QuotaPolicy policy,
        RefusalMessage message) {
      this.kind = kind;
      this.outage = outage;
      this.ruleName = ruleName;
      this.retryAfterSeconds = retryAfterSeconds;
      this.policy = policy;
      this.message = message;
    }

    boolean is(int k, boolean o, String rule, long retryAfter, QuotaPolicy p) {
      return kind == k && outage == o && retryAfterSeconds == retryAfter && policy == p
          && ruleName.equals(rule);
    }
  }
}
