package io.tollgate.stores.redis;

import java.util.Locale;

/** A rule's {@code on-failure}: what a decision is when the shared store cannot answer. */
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

  public String yamlName() {
    return yamlName;
  }

  /** The policy with this rules-file name, or null. */
  public static OnFailure fromYamlName(String name) {
    String wanted = name.toLowerCase(Locale.ROOT);
    for (OnFailure value : values()) {
      if (value.yamlName.equals(wanted)) {
        return value;
      }
    }
    return null;
  }
}
