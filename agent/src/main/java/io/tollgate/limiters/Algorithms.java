package io.tollgate.limiters;

import java.time.ZoneId;

/** Builds the algorithm a rule names, with its numbers. */
public final class Algorithms {

  private Algorithms() {}

  /** Settings that only some algorithms take; {@link #DEFAULTS} leaves them all off. */
  public static final class Options {

    public static final Options DEFAULTS = new Options(0);

    private final long maxDelayNanos;

    private Options(long maxDelayNanos) {
      this.maxDelayNanos = maxDelayNanos;
    }

    /** GCRA only: hold requests up to this long instead of refusing them (0: never). */
    public Options withMaxDelayNanos(long maxDelayNanos) {
      if (maxDelayNanos < 0) {
        throw new IllegalArgumentException("max-delay must not be negative: " + maxDelayNanos);
      }
      return new Options(maxDelayNanos);
    }

    public long maxDelayNanos() {
      return maxDelayNanos;
    }
  }

  /** The algorithm of this kind for this limit, with default options. */
  public static RateLimitAlgorithm<?> create(AlgorithmKind kind, LimitSpec spec) {
    return create(kind, spec, Options.DEFAULTS);
  }

  /**
   * The algorithm of this kind for this limit.
   *
   * @throws IllegalArgumentException if the options do not apply to the kind (a max-delay on
   *     anything but {@code gcra}), or the numbers are out of the algorithm's range
   */
  public static RateLimitAlgorithm<?> create(AlgorithmKind kind, LimitSpec spec, Options options) {
    if (options.maxDelayNanos() > 0 && kind != AlgorithmKind.GCRA) {
      throw new IllegalArgumentException(
          "max-delay applies to the gcra algorithm only, not " + kind.yamlName());
    }
    switch (kind) {
      case TOKEN_BUCKET:
        return new TokenBucket(spec);
      case GCRA:
        return new Gcra(spec, options.maxDelayNanos());
      case FIXED_WINDOW:
        return new FixedWindow(spec);
      case SLIDING_WINDOW:
        return new SlidingWindow(spec);
      case SLIDING_LOG:
        return new SlidingLog(spec);
      case CONCURRENCY:
        return new Concurrency(spec);
      case ADAPTIVE_CONCURRENCY:
        // the limit as the ceiling, the other settings their defaults (the rules file gives them)
        int max = (int) Math.min(spec.limit(), Integer.MAX_VALUE);
        return new AdaptiveConcurrency(Math.min(AdaptiveConcurrency.DEFAULT_MIN, max),
            Math.min(AdaptiveConcurrency.DEFAULT_INITIAL, max), max, 0, false, null);
      default:
        throw new IllegalArgumentException("unknown algorithm: " + kind);
    }
  }

  /** A calendar quota: {@code limit} per calendar {@code unit} in {@code zone}. */
  public static RateLimitAlgorithm<?> calendar(long limit, CalendarQuota.Unit unit, ZoneId zone) {
    return new CalendarQuota(limit, unit, zone);
  }
}
