package io.tollgate.config;

/** Whether refusals are real: {@code mode: enforce | shadow}. */
public enum Mode {
  /** Refuse requests over the limit (the default). */
  ENFORCE("enforce"),
  /** Decide, log and count, but never refuse. */
  SHADOW("shadow");

  private final String yamlName;

  Mode(String yamlName) {
    this.yamlName = yamlName;
  }

  /** The spelling in the rules file. */
  public String yamlName() {
    return yamlName;
  }
}
