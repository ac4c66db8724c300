package io.tollgate.stores.redis;

/**
 * The shared store could not answer in time: not connected, timed out, refused, an error reply, or
 * the circuit breaker is open. Thrown quickly, without a stack trace, so that the caller can apply
 * the rule's {@code on-failure} policy ({@link FailurePolicyStore}); {@link #kind()} says which of
 * these it was ({@link RedisFailure}).
 *
 * <p>A timeout is indeterminate: the script may have run and taken its tokens. Callers never retry
 * a decision on this exception.
 */
public final class BackendUnavailableException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final long retryAfterNanos;
  private final RedisFailure kind;

  public BackendUnavailableException(
      String message, Throwable cause, long retryAfterNanos, RedisFailure kind) {
    super(message, cause, false, false);
    this.retryAfterNanos = retryAfterNanos;
    this.kind = kind;
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
