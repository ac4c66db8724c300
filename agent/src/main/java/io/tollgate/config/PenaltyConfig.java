package io.tollgate.config;

import java.util.Objects;

/**
 * A rule's {@code penalty}: a key refused {@code after} times within {@code within} is refused
 * outright for {@code box-for}.
 */
public final class PenaltyConfig {
  private final int after;
  private final long withinNanos;
  private final long boxForNanos;

  public PenaltyConfig(int after, long withinNanos, long boxForNanos) {
    this.after = after;
    this.withinNanos = withinNanos;
    this.boxForNanos = boxForNanos;
  }

  public int after() {
    return after;
  }

  public long withinNanos() {
    return withinNanos;
  }

  public long boxForNanos() {
    return boxForNanos;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof PenaltyConfig)) {
      return false;
    }
    PenaltyConfig p = (PenaltyConfig) o;
    return after == p.after && withinNanos == p.withinNanos && boxForNanos == p.boxForNanos;
  }

  @Override
  public int hashCode() {
    return Objects.hash(after, withinNanos, boxForNanos);
  }

  @Override
  public String toString() {
    return "{after=" + after + ", within=" + Durations.format(withinNanos) + ", box-for="
        + Durations.format(boxForNanos) + "}";
  }
}
