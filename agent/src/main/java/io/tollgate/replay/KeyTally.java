package io.tollgate.replay;

/** What one key of one rule did during the replay. */
final class KeyTally {

  final String key;
  long requests;
  long refused;
  /** When the rule first refused the key, in milliseconds since the epoch; -1 if never. */
  long firstRefusalMillis = -1;
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

  void addToPeak(int budget, long nowNanos, long cost, long periodNanos) {
    WindowPeak peak = peaks[budget];
    if (peak == null) {
      peak = new WindowPeak();
      peaks[budget] = peak;
    }
    peak.add(nowNanos, cost, periodNanos);
  }
}
