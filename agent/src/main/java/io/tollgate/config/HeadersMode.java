package io.tollgate.config;

/**
 * Which quota headers responses carry: {@code headers: draft | draft-8 | legacy | both | none}.
 *
 * <p>The drafts of the IETF RateLimit headers (draft-ietf-httpapi-ratelimit-headers) changed the
 * meaning of {@code t}: draft-8 said "seconds until the quota resets" (express-rate-limit 8 still
 * sends that), the newest drafts "seconds until additional quota is made available", with {@code
 * Retry-After} never earlier than {@code t}. Clients written for either exist, so both are kept.
 */
public enum HeadersMode {
  /**
   * The newest draft (the default): {@code RateLimit-Policy} and {@code RateLimit}, {@code t} the
   * time until more quota is available (on a refusal, {@code Retry-After}).
   */
  DRAFT("draft"),
  /** Draft-8's meaning: the same fields, {@code t} the time until the quota is whole again. */
  DRAFT_8("draft-8"),
  /** {@code X-RateLimit-Limit/Remaining/Reset}, reset being the time until the quota is whole. */
  LEGACY("legacy"),
  /** The newest draft's fields and the legacy ones. */
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
