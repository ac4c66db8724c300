package io.tollgate.bootstrap;

/**
 * Returned by enter advice to skip the intercepted method: the request was refused and its 429
 * (or 503) is already written. Advice declares {@code skipOn = Refusal.class}; Byte Buddy skips
 * the method when the returned value is an instance of this class.
 */
public final class Refusal {

  public static final Refusal INSTANCE = new Refusal();

  private Refusal() {}

  @Override
  public String toString() {
    return "Refusal";
  }
}
