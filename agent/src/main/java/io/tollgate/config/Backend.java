package io.tollgate.config;

/** Where rate-limit state lives: {@code backend: local | redis}. */
public enum Backend {
  /** In-process state (the default). */
  LOCAL("local"),
  /** Shared state in Redis; needs a {@code redis} section. */
  REDIS("redis");

  private final String yamlName;

  Backend(String yamlName) {
    this.yamlName = yamlName;
  }

  /** The spelling in the rules file. */
  public String yamlName() {
    return yamlName;
  }
}
