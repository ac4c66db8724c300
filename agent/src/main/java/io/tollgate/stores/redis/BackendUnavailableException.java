package io.tollgate.stores.redis;

import io.tollgate.limiters.Verdict;
import java.util.concurrent.CompletionStage;

/**
 * The shared store could not answer in time: not connected, timed out, refused, an error reply, or
 * the circuit breaker is open. Thrown quickly, without a stack trace, so that the caller can apply
 * the rule's {@code on-failure} policy ({@link FailurePolicyStore}); {@link #kind()} says which of
 * these it was ({@link RedisFailure}).
 *
 * <p>A timeout is indeterminate: the script may have run and taken its tokens. Callers never retry
 * a decision on this exception.
 *
 * <p>A call that was sent and whose reply is late ({@link RedisFailure#SLOW}, {@link
 * RedisFailure#HUNG}) carries its reply to come ({@link #lateReply()}), and, once the rule's store
 * has said how to read it, the decision Redis will have made of it ({@link #lateDecision()}): what
 * the late decision's bound learns from ({@link LateReplyLedger}).
 */
public final class BackendUnavailableException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final long retryAfterNanos;
  private final RedisFailure kind;
  /** The raw reply of the late call (the script's flat list), or null. */
  private final transient CompletionStage<Object> lateReply;
  /** Redis's decision of the late call, read from {@link #lateReply}, or null. */
  private final transient CompletionStage<Verdict> lateDecision;

  public BackendUnavailableException(
      String message, Throwable cause, long retryAfterNanos, RedisFailure kind) {
    this(message, cause, retryAfterNanos, kind, null, null);
  }

  private BackendUnavailableException(String message, Throwable cause, long retryAfterNanos,
      RedisFailure kind, CompletionStage<Object> lateReply, CompletionStage<Verdict> lateDecision) {
    super(message, cause, false, false);
    this.retryAfterNanos = retryAfterNanos;
    this.kind = kind;
    this.lateReply = lateReply;
    this.lateDecision = lateDecision;
  }

  /** This failure, with the reply still to come of the call that was sent late. */
  BackendUnavailableException withLateReply(CompletionStage<Object> reply) {
    return new BackendUnavailableException(
        getMessage(), getCause(), retryAfterNanos, kind, reply, null);
  }

  /** This failure, with what Redis will have decided of the late call (read by the rule's store). */
  public BackendUnavailableException withLateDecision(CompletionStage<Verdict> decision) {
    return new BackendUnavailableException(
        getMessage(), getCause(), retryAfterNanos, kind, lateReply, decision);
  }

  /** The late call's raw reply to come, or null (not sent, lost, or not late). */
  CompletionStage<Object> lateReply() {
    return lateReply;
  }

  /**
   * Redis's decision of the late call once its reply comes (completing exceptionally if none
   * does), or null when it is not known: not sent, lost with its connection, or a store that does
   * not read it.
   */
  public CompletionStage<Verdict> lateDecision() {
    return lateDecision;
  }

  /**
   * A reply the rule's store could not read: the rule's own problem ({@link
   * RedisFailure#RULE_ERROR}).
   */
  public BackendUnavailableException(String message, Throwable cause, long retryAfterNanos) {
    this(message, cause, retryAfterNanos, RedisFailure.RULE_ERROR);
  }

  /** A hint: nanoseconds until the backend is tried again (the breaker's cool-down left), or 0. */
  public long retryAfterNanos() {
    return retryAfterNanos;
  }

  /** What failed: the backend as a whole, or only this call's rule. */
  public RedisFailure kind() {
    return kind;
  }
}
