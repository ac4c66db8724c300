package io.tollgate.diagnostics.metrics;

/**
 * A key that came back before the {@code Retry-After} it was given: how often, and how early the
 * last time. The key is shown as the refusal log shows it (cut short, printable, secrets already
 * hashed by the key resolver), never more.
 */
public final class EarlyRetryKey {

  private final String key;
  private final long count;
  private final long toldSeconds;
  private final double cameBackAfterSeconds;

  public EarlyRetryKey(String key, long count, long toldSeconds, double cameBackAfterSeconds) {
    this.key = key;
    this.count = count;
    this.toldSeconds = toldSeconds;
    this.cameBackAfterSeconds = cameBackAfterSeconds;
  }

  /** The key, as the refusal log shows it. */
  public String key() {
    return key;
  }

  /**
   * Its early retries: exact for a key counted from its first early retry on, else at most the
   * count of the key it replaced in the bounded table over (see {@link EarlyRetryKeys}).
   */
  public long count() {
    return count;
  }

  /** The {@code Retry-After}, in seconds, its last early retry had been given. */
  public long toldSeconds() {
    return toldSeconds;
  }

  /** How long after that refusal its last early retry came, in seconds. */
  public double cameBackAfterSeconds() {
    return cameBackAfterSeconds;
  }

  /** As JMX shows it: {@code 203.0.113.7=240 (told 12 s, came back after 0.2 s)}. */
  @Override
  public String toString() {
    return key + "=" + count + " (told " + toldSeconds + " s, came back after "
        + EarlyRetryKeys.seconds(cameBackAfterSeconds) + " s)";
  }
}
