package io.tollgate.limiters;

/**
 * What every algorithm's per-key state extends: one field that the local store keeps beside the
 * algorithm's own, the coarse time the key was last used, so that it can forget idle keys itself.
 *
 * <p>Why here and not in the store's cache: Caffeine's own expiry reads a clock, writes the entry's
 * time and records the read for its policy on every hit, which cost more than the decision itself;
 * a wrapper object per key would cost 16 bytes more per key. This {@code int} fills the 4 bytes of
 * alignment padding that follow the object header in the states made of longs (the token bucket,
 * GCRA, the windows), so there it costs nothing.
 *
 * <p>The algorithms never read or write it: it is no part of their behaviour. The store reads and
 * writes it under the state's monitor, as it does the rest of the state.
 */
public abstract class KeyState {

  /** The mark of a state its store has dropped: whoever still holds it must look the key up again. */
  private static final int FORGOTTEN = Integer.MIN_VALUE;

  private int lastUsedTick;

  /** The store's coarse time of the key's last use (units and origin are the store's). */
  public final int lastUsedTick() {
    return lastUsedTick;
  }

  public final void markUsed(int tick) {
    lastUsedTick = tick;
  }

  /** Marks this state as dropped from its store. */
  public final void markForgotten() {
    lastUsedTick = FORGOTTEN;
  }

  /** Whether the store has dropped this state (a concurrent caller looked it up just before). */
  public final boolean isForgotten() {
    return lastUsedTick == FORGOTTEN;
  }
}
