package io.tollgate.config;

/**
 * What an outbound rule does with a call that has no room: {@code on-limit: wait | fail}.
 */
public enum OnLimit {
  /** Pace the call: it waits its turn, up to the rule's {@code max-wait}, then goes out (default). */
  WAIT,
  /** Fail the call at once, as the client would fail for the partner's own 429. */
  FAIL;

  /** The spelling in the rules file. */
  public String yamlName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
