package io.tollgate.config;

/**
 * What a rule tells the client: whether its quota shows in RateLimit headers ({@code
 * quota-headers}, {@code partition-key}) and how it answers a request it refuses ({@code
 * response}).
 */
public final class Responding extends ConfigValue {

  private final Boolean quotaHeaders;
  private final boolean partitionKey;
  private final ResponseConfig refusal;

  /**
   * @param quotaHeaders null when not written
   * @param refusal the rule's own {@code response}; null when not written
   */
  Responding(Boolean quotaHeaders, boolean partitionKey, ResponseConfig refusal) {
    this.quotaHeaders = quotaHeaders;
    this.partitionKey = partitionKey;
    this.refusal = refusal == null ? ResponseConfig.NONE : refusal;
  }

  @Override
  Object[] fields() {
    return new Object[] {quotaHeaders, partitionKey, refusal};
  }

  /** {@code quota-headers}; null = not set. */
  public Boolean quotaHeaders() {
    return quotaHeaders;
  }

  /** {@code partition-key}: the RateLimit fields carry the draft's {@code pk} (default false). */
  public boolean partitionKey() {
    return partitionKey;
  }

  /** The rule's own {@code response} ({@link ResponseConfig#NONE} when not given). */
  public ResponseConfig refusal() {
    return refusal;
  }
}
