/**
 * The algorithms, each a pure function of a key's state, the time and the cost: {@link
 * io.tollgate.limiters.TokenBucket}, {@link io.tollgate.limiters.Gcra}, {@link
 * io.tollgate.limiters.FixedWindow}, {@link io.tollgate.limiters.SlidingWindow}, {@link
 * io.tollgate.limiters.SlidingLog}, {@link io.tollgate.limiters.CalendarQuota}, {@link
 * io.tollgate.limiters.Concurrency} and {@link io.tollgate.limiters.AdaptiveConcurrency}, behind
 * {@link io.tollgate.limiters.RateLimitAlgorithm}; the numbers of a limit ({@link
 * io.tollgate.limiters.LimitSpec}), a decision ({@link io.tollgate.limiters.Verdict}), the clock,
 * and the penalty box.
 *
 * <p>No I/O and no framework: where the state lives is {@code stores}' business.
 *
 * <p>May use: {@code logging}.
 */
package io.tollgate.limiters;
