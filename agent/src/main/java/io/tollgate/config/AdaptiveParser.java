package io.tollgate.config;

import io.tollgate.limiters.AdaptiveConcurrency;
import io.tollgate.limiters.AlgorithmKind;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.nodes.NodeTuple;

/**
 * The settings of {@code algorithm: adaptive-concurrency}: {@code min}, {@code initial}, {@code
 * max} and {@code max-wait}; and the keys of other algorithms it does not take ({@code limit},
 * {@code period}: it finds its limit itself).
 */
final class AdaptiveParser {

  /** The keys only adaptive-concurrency takes. */
  static final List<String> KEYS = Arrays.asList("min", "initial", "max", "max-wait");

  /** The largest min, initial or max: far above any thread pool. */
  static final long MAX_LIMIT = 100_000;

  /** Keys of the other algorithms, and why adaptive-concurrency takes none of them. */
  private static final String[][] NOT_TAKEN = {
    {"limit", "it finds its limit from the app's latency; give 'max' for a ceiling, 'initial' for where it starts"},
    {"period", "it limits requests in flight, not requests per period"},
    {"burst", "it limits requests in flight, not requests per period"},
    {"limits", "it finds its limit from the app's latency; give 'min' and 'max' for its bounds"},
    {"plans", "it finds its limit from the app's latency, one per key"},
    {"calendar", "it limits requests in flight, not requests per period"},
    {"time-zone", "it limits requests in flight, not requests per period"},
    {"max-delay", "a request over the limit waits for a permit with 'max-wait' instead"},
    {"cost", "every request takes one permit"},
    {"cost-header", "every request takes one permit"},
    {"penalty", "it protects the app, not from one client; combine it with a rate rule for that"},
  };

  /** What a rule's adaptive-concurrency settings are; 0 where not given. */
  static final class Settings {
    final int min;
    final int initial;
    final int max;
    final long maxWaitNanos;

    Settings(int min, int initial, int max, long maxWaitNanos) {
      this.min = min;
      this.initial = initial;
      this.max = max;
      this.maxWaitNanos = maxWaitNanos;
    }
  }

  private final YamlNodes y;

  AdaptiveParser(YamlNodes y) {
    this.y = y;
  }

  /**
   * For a rule of another algorithm: reports each adaptive-concurrency key it gives. For an
   * adaptive-concurrency rule: reports each key it does not take, and reads its own, with their
   * defaults; null when one is wrong.
   */
  Settings parse(Map<String, NodeTuple> f, AlgorithmKind algorithm, String ctx) {
    if (algorithm != AlgorithmKind.ADAPTIVE_CONCURRENCY) {
      for (String key : KEYS) {
        NodeTuple t = f.get(key);
        if (t != null) {
          y.problem(
              t.getKeyNode(),
              ctx + key + " applies to the adaptive-concurrency algorithm only; add 'algorithm: adaptive-concurrency' or remove it");
        }
      }
      return null;
    }
    int before = y.problemCount();
    for (String[] notTaken : NOT_TAKEN) {
      NodeTuple t = f.get(notTaken[0]);
      if (t != null) {
        y.problem(
            t.getKeyNode(),
            ctx + notTaken[0] + " does not apply to the adaptive-concurrency algorithm: " + notTaken[1] + "; remove it");
      }
    }
    Long min = bound(f.get("min"), "min", ctx);
    Long initial = bound(f.get("initial"), "initial", ctx);
    Long max = bound(f.get("max"), "max", ctx);
    if (min != null && max != null && min > max) {
      y.problem(f.get("min").getValueNode(),
          ctx + "min (" + min + ") is more than max (" + max + "); the limit moves between them");
    }
    if (initial != null && min != null && initial < min) {
      y.problem(f.get("initial").getValueNode(),
          ctx + "initial (" + initial + ") is less than min (" + min + "); it must lie between min and max");
    }
    if (initial != null && max != null && initial > max) {
      y.problem(f.get("initial").getValueNode(),
          ctx + "initial (" + initial + ") is more than max (" + max + "); it must lie between min and max");
    }
    long maxWait = 0;
    NodeTuple mw = f.get("max-wait");
    if (mw != null) {
      Long d = y.duration(mw.getValueNode(), "max-wait", ctx);
      if (d != null && d > AdaptiveConcurrency.MAX_WAIT_CAP_NANOS) {
        y.problem(
            mw.getValueNode(),
            ctx + "max-wait must be at most 10s: a waiting request keeps a server thread busy, so longer waits should be refused with Retry-After instead");
      } else if (d != null) {
        maxWait = d;
      }
    }
    if (y.problemCount() > before) {
      return null;
    }
    // Defaults that make room for what was given: min 4, initial 20, max 200.
    long hi = max != null ? max : Math.max(AdaptiveConcurrency.DEFAULT_MAX,
        Math.max(min == null ? 0 : min, initial == null ? 0 : initial));
    long lo = min != null ? min : Math.min(AdaptiveConcurrency.DEFAULT_MIN,
        Math.min(hi, initial == null ? Long.MAX_VALUE : initial));
    long start = initial != null ? initial
        : Math.max(lo, Math.min(hi, AdaptiveConcurrency.DEFAULT_INITIAL));
    return new Settings((int) lo, (int) start, (int) hi, maxWait);
  }

  private Long bound(NodeTuple t, String what, String ctx) {
    if (t == null) {
      return null;
    }
    return y.integer(t.getValueNode(), what, "a positive integer of at most " + MAX_LIMIT, 1,
        MAX_LIMIT, ctx);
  }
}
