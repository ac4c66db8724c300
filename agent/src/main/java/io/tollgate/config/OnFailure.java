package io.tollgate.config;

/** What a rule does when its backend cannot answer: {@code on-failure: allow | deny | local}. */
public enum OnFailure {
  /** Let the request through (the default). */
  ALLOW("allow"),
  /** Refuse with 503. */
  DENY("deny"),
  /** Fall back to an in-process limiter. */
  LOCAL("local");

  private final String yamlName;

  OnFailure(String yamlName) {
    this.yamlName = yamlName;
  }

  /** The spelling in the rules file. */
  public String yamlName() {
    return yamlName;
  }
}
