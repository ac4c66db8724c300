package io.tollgate.stores.redis;

/** Who made a decision: the shared store, or one of the on-failure policies in its place. */
public enum DecisionSource {
  /** Redis decided. */
  BACKEND,
  /** Redis could not answer; on-failure: allow let the request through. */
  FAIL_OPEN,
  /**
   * Redis could not answer; on-failure: deny refused the request. The engine answers 503 (not 429)
   * with the verdict's Retry-After.
   */
  FAIL_CLOSED,
  /** Redis could not answer; on-failure: local decided with the in-process share of the limit. */
  DEGRADED_LOCAL
}
