package io.tollgate.config;

/** Which quota headers responses carry: {@code headers: draft | legacy | both | none}. */
public enum HeadersMode {
  /** IETF draft {@code RateLimit} and {@code RateLimit-Policy} (the default). */
  DRAFT("draft"),
  /** {@code X-RateLimit-*}. */
  LEGACY("legacy"),
  /** Both of the above. */
  BOTH("both"),
  /** No quota headers at all. */
  NONE("none");

  private final String yamlName;

  HeadersMode(String yamlName) {
    this.yamlName = yamlName;
  }

  /** The spelling in the rules file. */
  public String yamlName() {
    return yamlName;
  }
}
