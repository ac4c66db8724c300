package io.tollgate.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * {@code per-client} and {@code per-client-key} of the concurrency algorithms: the most of a rule's
 * permits one client may hold, in percent, and what tells one client from another.
 */
public final class PerClientSettings extends ConfigValue {

  private final int percent;
  private final List<String> key;

  /**
   * @param percent 1 to 100, or 0 when off (its default is filled in by the parser)
   * @param key null for the default, {@code ip}
   */
  PerClientSettings(int percent, List<String> key) {
    this.percent = percent;
    this.key =
        key == null
            ? Collections.singletonList("ip")
            : Collections.unmodifiableList(new ArrayList<>(key));
  }

  @Override
  Object[] fields() {
    return new Object[] {percent, key};
  }

  /** The most of the permits one client key may hold, in percent, or 0 when off. */
  public int percent() {
    return percent;
  }

  /** What tells one client from another; default {@code ["ip"]}. */
  public List<String> key() {
    return key;
  }
}
