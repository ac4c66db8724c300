package io.tollgate.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Which key a request counts against, and how many keys a rule tracks: {@code key},
 * {@code key-normalize}, {@code key-fallback} and {@code max-keys}.
 */
public final class Keying extends ConfigValue {

  /** {@code max-keys} when not given. */
  static final long DEFAULT_MAX_KEYS = 100_000L;

  private final List<String> key;
  private final Boolean normalize;
  private final List<String> fallback;
  private final long maxKeys;

  /**
   * @param key empty for the default, {@code ip}
   * @param normalize null when not written
   * @param fallback null when none
   * @param maxKeys 0 or less for the default
   */
  Keying(List<String> key, Boolean normalize, List<String> fallback, long maxKeys) {
    this.key =
        Collections.unmodifiableList(
            new ArrayList<>(key.isEmpty() ? Collections.singletonList("ip") : key));
    this.normalize = normalize;
    this.fallback = fallback == null ? null : Collections.unmodifiableList(new ArrayList<>(fallback));
    this.maxKeys = maxKeys > 0 ? maxKeys : DEFAULT_MAX_KEYS;
  }

  @Override
  Object[] fields() {
    return new Object[] {key, normalize, fallback, maxKeys};
  }

  /** {@code key}: the parts of the rate-limit key; default {@code ["ip"]}. */
  public List<String> key() {
    return key;
  }

  /** {@code key-normalize}; null = not set. */
  public Boolean normalize() {
    return normalize;
  }

  /** {@code key-fallback}: the key of requests that lack {@link #key()}, or null. */
  public List<String> fallback() {
    return fallback;
  }

  /** {@code max-keys}: how many keys the rule tracks locally; default 100000. */
  public long maxKeys() {
    return maxKeys;
  }
}
