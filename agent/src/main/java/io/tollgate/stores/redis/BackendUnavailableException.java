package io.tollgate.stores.redis;

/**
 * The shared store could not answer in time: not connected, timed out, refused, or the circuit
 * breaker is open. Thrown quickly, without a stack trace, so that the caller can apply the rule's
 * {@code on-failure} policy ({@link FailurePolicyStore}).
 *
 * <p>A timeout is indeterminate: the script may have run and taken its tokens. Callers never retry
 * a decision on this exception.
 */
public final class BackendUnavailableException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final long retryAfterNanos;

  public BackendUnavailableException(String message, Throwable cause, long retryAfterNanos) {
    super(message, cause, false, false);
    this.retryAfterNanos = retryAfterNanos;
  }

  /** A hint: nanoseconds until the backend is tried again (the breaker's cool-down left), or 0. */
  public long retryAfterNanos() {
    return retryAfterNanos;
  }
}
