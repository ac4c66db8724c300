package io.tollgate.outbound;

/**
 * A partner's wait in force on one key of an outbound rule, as {@code status} shows it: until when
 * (this JVM's {@link System#nanoTime()} and the wall clock), and the answer that asked for it.
 */
public final class PartnerHold {

  /** The rule's key: empty for {@code global}, {@code host:port}, or the header's value. */
  public final String key;
  final long untilNanos;
  /** When the wait ends, in milliseconds since the epoch. */
  public final long untilMillis;
  /** The partner's answer: {@code api.partner.example:443 answered 429 with Retry-After, ...}. */
  public final String answer;
  /** Learnt from this instance's own call; false: found on Redis, learnt by another instance. */
  public final boolean learntHere;

  PartnerHold(String key, long untilNanos, long untilMillis, String answer, boolean learntHere) {
    this.key = key;
    this.untilNanos = untilNanos;
    this.untilMillis = untilMillis;
    this.answer = answer;
    this.learntHere = learntHere;
  }
}
