package io.tollgate.config;

/**
 * Whether a rule refuses, and what it does when its shared store cannot be reached: {@code mode}
 * and {@code on-failure}.
 */
public final class Enforcement extends ConfigValue {

  private final Mode mode;
  private final OnFailure onFailure;

  /**
   * @param mode null to follow the file's mode
   * @param onFailure null for the default, allow
   */
  Enforcement(Mode mode, OnFailure onFailure) {
    this.mode = mode;
    this.onFailure = onFailure == null ? OnFailure.ALLOW : onFailure;
  }

  @Override
  Object[] fields() {
    return new Object[] {mode, onFailure};
  }

  /** {@code mode}; null = follow the global mode. */
  public Mode mode() {
    return mode;
  }

  /** {@code on-failure}; default allow. */
  public OnFailure onFailure() {
    return onFailure;
  }
}
