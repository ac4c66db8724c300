package io.tollgate.config;

/**
 * What a rule does when its shared store cannot answer: {@code on-failure: allow | deny | local}.
 * Read from the rules file here and obeyed by the Redis store's failure policy, which may use
 * {@code config}; there is no second copy of it in {@code stores}.
 */
public enum OnFailure {
  /** Let the request through (the default). */
  ALLOW("allow"),
  /** Refuse it: the engine answers 503 with Retry-After. */
  DENY("deny"),
  /** Decide in this process, with the limit divided by the number of live instances. */
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
