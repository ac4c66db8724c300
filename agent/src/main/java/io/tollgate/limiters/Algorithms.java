package io.tollgate.limiters;

/** Creates the algorithm a rule names. */
public final class Algorithms {

  private Algorithms() {}

  public static RateLimitAlgorithm<?> create(AlgorithmKind kind, LimitSpec spec) {
    switch (kind) {
      case TOKEN_BUCKET:
        return new TokenBucket(spec);
      default:
        throw new IllegalArgumentException(kind.yamlName() + " is not available yet");
    }
  }

  public static boolean isSupported(AlgorithmKind kind) {
    return kind == AlgorithmKind.TOKEN_BUCKET;
  }
}
