package io.tollgate.stores.redis;

/**
 * What this JVM has heard of Redis over the last {@code max-wait}, for a decision whose reply is
 * late ({@link RedisBackend#hearing}, {@link LateReplyLedger#decideLate}).
 */
enum RedisHearing {
  /** A reply came within {@code max-wait}, or nothing was asked that long. */
  ANSWERING,
  /**
   * Nothing came for {@code max-wait} while calls were out, and this JVM listened: its event loop
   * ran after the silence reached {@code max-wait} and read nothing ({@link EventLoopBarrier}).
   * Redis frozen, or every reply later than {@code max-wait}: the local shares decide.
   */
  SILENT,
  /**
   * Nothing read for {@code max-wait}, but this JVM's event loop has not run within the bound
   * since: the replies may be waiting unread in the socket (a host starved of CPU). Redis is not
   * silent for this decision, and nothing current is known of it.
   */
  NOT_LISTENING
}
