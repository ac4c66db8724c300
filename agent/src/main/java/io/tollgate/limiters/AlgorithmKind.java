package io.tollgate.limiters;

import java.util.Locale;

/** The algorithms a rule can name, with their spelling in the rules file. */
public enum AlgorithmKind {
  TOKEN_BUCKET("token-bucket"),
  GCRA("gcra"),
  FIXED_WINDOW("fixed-window"),
  SLIDING_WINDOW("sliding-window"),
  SLIDING_LOG("sliding-log"),
  CONCURRENCY("concurrency"),
  ADAPTIVE_CONCURRENCY("adaptive-concurrency");

  private final String yamlName;

  AlgorithmKind(String yamlName) {
    this.yamlName = yamlName;
  }

  /** The name used in the rules file, such as {@code token-bucket}. */
  public String yamlName() {
    return yamlName;
  }

  /** The kind with this rules-file name, or null. */
  public static AlgorithmKind fromYamlName(String name) {
    String wanted = name.toLowerCase(Locale.ROOT);
    for (AlgorithmKind kind : values()) {
      if (kind.yamlName.equals(wanted)) {
        return kind;
      }
    }
    return null;
  }
}
