package io.tollgate.replay;

/** What one key of one rule did during the replay. */
final class KeyTally {

  final String key;
  long requests;
  long refused;
  /** When the rule first refused the key, in milliseconds since the epoch; -1 if never. */
  long firstRefusalMillis = -1;
  /** When the rule last refused the key (nanoseconds of the log's clock), and the wait it told. */
  private long refusedAtNanos;
  private long toldNanos;
  /** Requests refused before the wait the key was last told had elapsed. */
  long earlyRetries;
  /** The last early retry: the wait it had been told, in seconds, and how soon it came back. */
  long lastToldSeconds;
  long lastAfterNanos;
  /** Per budget of the rule (in {@link ReplayedRule#budgets} order), made when the key first uses it. */
  final WindowPeak[] peaks;

  KeyTally(String key, int budgets) {
    this.key = key;
    this.peaks = new WindowPeak[budgets];
  }

  void record(boolean wasRefused, long nowMillis) {
    requests++;
    if (wasRefused) {
      if (refused == 0) {
        firstRefusalMillis = nowMillis;
      }
      refused++;
    }
  }

  /**
   * The rule refused the key at {@code nowNanos}, telling it to wait {@code toldSeconds}: whether
   * that was an early retry (before the wait it was last told had elapsed), as the agent counts
   * one ({@code tollgate_early_retries_total}).
   */
  boolean refusedTelling(long nowNanos, long toldSeconds) {
    boolean early = toldNanos > 0 && nowNanos - refusedAtNanos < toldNanos;
    if (early) {
      earlyRetries++;
      lastToldSeconds = toldNanos / 1_000_000_000L;
      lastAfterNanos = nowNanos - refusedAtNanos;
    }
    refusedAtNanos = nowNanos;
    toldNanos = toldSeconds * 1_000_000_000L;
    return early;
  }

  void addToPeak(int budget, long nowNanos, long cost, long periodNanos) {
    WindowPeak peak = peaks[budget];
    if (peak == null) {
      peak = new WindowPeak();
      peaks[budget] = peak;
    }
    peak.add(nowNanos, cost, periodNanos);
  }
}
