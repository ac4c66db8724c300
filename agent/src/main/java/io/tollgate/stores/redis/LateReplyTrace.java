package io.tollgate.stores.redis;

import io.tollgate.logging.AgentLog;
import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * A benchmark's view of where each token of a late-replying Redis went ({@code
 * -Dtollgate.test.late-trace=true}, off otherwise): per key, how this instance's calls were decided
 * (in time by Redis, by a credit, by the share, held) and what their late replies said, and the
 * tokens given back to Redis; printed to the agent's log every {@link #PERIOD_MILLIS} while they
 * change, with the wall clock, so that {@code run-redis-faults.sh} can lay the three instances'
 * counts beside the flood's start and end. Off, a key carries no counts and nothing runs.
 */
final class LateReplyTrace {

  static final String PROPERTY = "tollgate.test.late-trace";
  static final boolean ON = Boolean.getBoolean(PROPERTY);
  private static final long PERIOD_MILLIS = 250;

  /** What is counted per key; the names are the log's. */
  enum Count {
    /** Answered in time by Redis: granted, refused. */
    IN_TIME_GRANTED,
    IN_TIME_REFUSED,
    /** Late decisions: admitted by a credit (of which through the room kept at a refusal). */
    CREDIT,
    CREDIT_FROM_ROOM,
    /** Admitted by the share: Redis silent, or what Redis said is left covering the calls. */
    SHARE_BET,
    COVERED_BET,
    /** Refused late: by the share (Redis silent), or held (a token granted to it is a credit). */
    SHARE_REFUSED,
    HELD_SHARE_ADMITS,
    HELD_SHARE_REFUSES,
    /** Late decisions whose call has no reply to come (not sent, lost). */
    NO_REPLY,
    /** Late replies: a token granted to a request refused here; to one admitted here (a bet, a credit). */
    LATE_GRANT_REFUSED_HERE,
    LATE_GRANT_ADMITTED_HERE,
    /** Late replies that refused: a bet admitted here (a debt), a request refused here too. */
    LATE_REFUSAL_ADMITTED_HERE,
    LATE_REFUSAL_REFUSED_HERE,
    /** Tokens given back to Redis, not sent (kept here), and credits expired unspent. */
    REFUNDED,
    REFUND_NOT_SENT,
    EXPIRED,
    /**
     * Of {@link #COVERED_BET}, those made before Redis answered the key (the share covering the
     * others' calls in flight), not on what Redis last said is left. Last, so that the lines
     * read before it was counted keep their order.
     */
    COVERED_BEFORE_ANSWER,
    /**
     * Of {@link #COVERED_BET}, those made while no call of the key had been answered in time for
     * {@code max-wait} (the allowance does not bound them), and of {@link #SHARE_BET} and the
     * covered bets, those whose late reply said Redis refused them, by path: what this instance
     * admitted over Redis's count, and on what. Last, for the same reason.
     */
    COVERED_NO_IN_TIME,
    REFUSED_SHARE_BET,
    REFUSED_BEFORE_ANSWER,
    REFUSED_COVERED_NO_IN_TIME,
    REFUSED_COVERED_IN_TIME,
    /** Bets admitted here whose call has no reply to come (not counted by Redis, unless sent). */
    NO_REPLY_BET,
    /**
     * Late requests the share admitted while Redis was silent, held because they were past this
     * instance's part of what Redis's latest grant of the key said is left. Last, as above.
     */
    SILENT_SHARE_HELD,
    /**
     * Late requests held because this JVM had not read for {@code max-wait} and its event loop
     * had not run within the bound since ({@link RedisHearing#NOT_LISTENING}), where the share
     * would have bet (Redis silent) or covered (nothing of the key answered lately). Last.
     */
    NOT_LISTENING_HELD
  }

  /** What kind of bet a call's late decision was, for the counts of its reply. */
  enum Bet {
    NONE, SHARE, BEFORE_ANSWER, COVERED_NO_IN_TIME, COVERED_IN_TIME;

    Count refused() {
      switch (this) {
        case SHARE: return Count.REFUSED_SHARE_BET;
        case BEFORE_ANSWER: return Count.REFUSED_BEFORE_ANSWER;
        case COVERED_NO_IN_TIME: return Count.REFUSED_COVERED_NO_IN_TIME;
        case COVERED_IN_TIME: return Count.REFUSED_COVERED_IN_TIME;
        default: return null;
      }
    }
  }

  private LateReplyTrace() {}

  /** A key's counts, or null when tracing is off. */
  static long[] countsOrNull() {
    return ON ? new long[Count.values().length] : null;
  }

  /** Adds {@code n} to {@code what} in a key's counts (under the key's lock); nothing when off. */
  static void count(long[] counts, Count what, long n) {
    if (counts != null && what != null) {
      counts[what.ordinal()] += n;
    }
  }

  /**
   * Prints the ledger's keys whose counts changed, every {@link #PERIOD_MILLIS}, on the traces'
   * one printer thread ({@link TracePrinter}); nothing when off.
   */
  static void follow(String ruleName, Supplier<Collection<LateReplyLedger.Key>> keys) {
    if (!ON) {
      return;
    }
    TracePrinter.every(PERIOD_MILLIS, () -> print(ruleName, keys.get()));
  }

  private static void print(String ruleName, Collection<LateReplyLedger.Key> keys) {
    for (LateReplyLedger.Key k : keys) {
      long[] now;
      long credits;
      long room;
      int outstanding;
      String bets;
      synchronized (k) {
        if (k.counts == null || Arrays.equals(k.counts, k.countsPrinted)) {
          continue;
        }
        now = k.counts.clone();
        k.countsPrinted = now;
        credits = k.credits;
        room = k.roomForCredits;
        outstanding = k.outstanding;
        bets = k.betsNotPrinted.toString();
        k.betsNotPrinted.setLength(0);
      }
      StringBuilder line = new StringBuilder("late-trace ms=").append(System.currentTimeMillis())
          .append(" rule=").append(ruleName).append(" key=").append(k.name)
          .append(" credits=").append(credits).append(" room=").append(room)
          .append(" outstanding=").append(outstanding);
      for (Count c : Count.values()) {
        line.append(' ').append(c.name().toLowerCase(Locale.ROOT)).append('=')
            .append(now[c.ordinal()]);
      }
      AgentLog.info(line.toString());
      if (!bets.isEmpty()) {
        AgentLog.info("late-bets ms=" + System.currentTimeMillis() + " rule=" + ruleName + " key="
            + k.name + bets);
      }
    }
  }
}
