package io.tollgate.replay;

import io.tollgate.config.Backend;
import io.tollgate.config.RulesConfig;

/**
 * A replay counts in its own memory, whatever the file's {@code backend:} says: one process sees
 * every request of the log, which is what a shared Redis store gives a fleet (the same rule gives
 * the same decisions on both backends). Nothing connects to Redis, and {@code on-failure} never
 * applies.
 */
final class LocalSemantics {

  private LocalSemantics() {}

  /** {@code config} with {@code backend: local} and no {@code redis:} section. */
  static RulesConfig of(RulesConfig config) {
    if (config.backend() == Backend.LOCAL) {
      return config;
    }
    return new RulesConfig(
        config.source(),
        Backend.LOCAL,
        null,
        config.clientIp(),
        config.headers(),
        config.mode(),
        config.rules(),
        null,
        config.response());
  }
}
