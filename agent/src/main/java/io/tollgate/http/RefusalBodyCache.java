package io.tollgate.http;

import io.tollgate.limiters.QuotaPolicy;

/**
 * The bodies a {@link RefusalBody} already wrote, so that a flood's refusals (the same rule, the
 * same {@code Retry-After} for a whole second, the same kind of client) send the same bytes
 * without building them again: a refused request should cost no more than an allowed one.
 *
 * <p>Direct-mapped and bounded: {@value #SLOTS} slots, each holding the last body whose key falls
 * on it; a key that collides with another only builds its body again. No lock: a slot is a plain
 * array element holding an immutable {@link Body} (final fields, so a thread that reads the slot
 * sees the body whole), and two threads that build the same body at once both write it, which is
 * harmless. The bytes are shared between requests; the exchanges only read them.
 */
final class RefusalBodyCache {

  /** The kinds of body a refusal can have (the status follows from the outage flag). */
  static final int TEMPLATE = 0;
  static final int HTML = 1;
  static final int PROBLEM_JSON = 2;

  /** A power of two: enough for a few rules sharing the default body, each with a few seconds. */
  static final int SLOTS = 32;

  /**
   * Bodies longer than this are built every time: the default ones are ~0.3-0.6 KB, and a rules
   * file of many rules, each with its own template, must not hold more than 64 KB per rule.
   */
  static final int MAX_CACHED_BYTES = 2 * 1024;

  private final Body[] slots = new Body[SLOTS];

  /**
   * The body kept for this key, or null. {@code policy} is compared by identity, as each rule and
   * budget keeps its own; pass null where the body does not depend on it. (A find and a {@link
   * #keep} rather than one call with a builder: a capturing lambda would be an allocation on every
   * refusal.)
   */
  byte[] find(
      int kind, boolean outage, String ruleName, long retryAfterSeconds, QuotaPolicy policy) {
    Body cached = slots[slot(kind, outage, ruleName, retryAfterSeconds)];
    return cached != null && cached.is(kind, outage, ruleName, retryAfterSeconds, policy)
        ? cached.bytes
        : null;
  }

  /** Keeps {@code bytes} as the body of this key (in place of whatever shared its slot). */
  byte[] keep(
      int kind,
      boolean outage,
      String ruleName,
      long retryAfterSeconds,
      QuotaPolicy policy,
      byte[] bytes) {
    if (bytes.length <= MAX_CACHED_BYTES) {
      slots[slot(kind, outage, ruleName, retryAfterSeconds)] =
          new Body(kind, outage, ruleName, retryAfterSeconds, policy, bytes);
    }
    return bytes;
  }

  private static int slot(int kind, boolean outage, String ruleName, long retryAfterSeconds) {
    int h = ruleName.hashCode();
    h = 31 * h + Long.hashCode(retryAfterSeconds);
    h = 31 * h + kind * 2 + (outage ? 1 : 0);
    // spread the high bits down: retry-after values differ in the low ones already
    h ^= h >>> 16;
    return h & (SLOTS - 1);
  }

  /** One cached body and the key it was built for. */
  private static final class Body {
    final int kind;
    final boolean outage;
    final String ruleName;
    final long retryAfterSeconds;
    final QuotaPolicy policy;
    final byte[] bytes;

    Body(
        int kind,
        boolean outage,
        String ruleName,
        long retryAfterSeconds,
        QuotaPolicy policy,
        byte[] bytes) {
      this.kind = kind;
      this.outage = outage;
      this.ruleName = ruleName;
      this.retryAfterSeconds = retryAfterSeconds;
      this.policy = policy;
      this.bytes = bytes;
    }

    boolean is(int k, boolean o, String rule, long retryAfter, QuotaPolicy p) {
      return kind == k && outage == o && retryAfterSeconds == retryAfter && policy == p
          && ruleName.equals(rule);
    }
  }
}
