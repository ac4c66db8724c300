package io.tollgate.limiters;

import java.util.concurrent.TimeUnit;

/**
 * A limit on the requests in flight that the app's own latency sets: the {@code
 * adaptive-concurrency} algorithm. It protects the app from overload without a number from last
 * quarter's load test: when the latency of the rule's completed requests rises above its no-load
 * level (requests queue inside the app) or the app fails, the limit shrinks; while latency stays
 * level and the app uses the limit, it grows; always between {@code min} and {@code max}. The
 * level is measured every few seconds by a short probe at {@code min}.
 *
 * <h2>The design, and why</h2>
 *
 * Netflix's Gradient2 ({@code concurrency-limits}, its default), with Netflix's windows, an AIMD
 * decrease for errors, and Envoy's way of measuring the no-load latency (its adaptive concurrency
 * filter's minRTT calculation):
 *
 * <ul>
 *   <li><b>Samples by window, not per request.</b> Each completed request adds its latency (from
 *       admission to its end, asynchronous requests included) to the current window; the limit is
 *       updated once per window, when it has lasted {@code clamp(2 x recent latency, 100 ms, 1 s)}
 *       and holds at least {@value #WINDOW_MIN_SAMPLES} samples (a window with fewer is dropped, as
 *       Netflix's {@code WindowedLimit} does: too few requests to say anything, and no need to
 *       limit them). A completion costs a few additions under the key's monitor.
 *   <li><b>Recent vs no-load latency.</b> The window's mean latency (the recent latency) is
 *       compared with the no-load estimate: {@code gradient = clamp(noLoad / recent, 0.5, 1)},
 *       {@code new = limit x gradient + sqrt(limit)}, smoothed ({@code limit = 0.8 limit + 0.2
 *       new}). The square root is the queue the limit allows for (Gradient's default): it lets the
 *       limit probe upwards while latency is level, absorbs the jitter of a window's mean, and, in
 *       balance with the gradient, settles the limit where the app starts to queue: for an app of
 *       {@code w} workers (latency {@code base x max(w, L) / w}) where {@code L - sqrt(L) = w}, 11
 *       for 8 workers, 47 for 40, 110 for 100: a latency 1.1 to 1.4 x the base. The floor of 0.5
 *       keeps an outlier window from halving the limit more than once. There is no buffer on the
 *       estimate (Envoy adds one, Gradient2 had a tolerance of 1.5 and dropped it): the square root
 *       is the headroom already, and a buffer {@code b} moves the balance to {@code L - sqrt(L) =
 *       (1 + b) w}, and the latency with it.
 *   <li><b>The no-load latency is measured (Envoy's minRTT probes).</b> Every 5 s, jittered by
 *       20% either way (the first time 2 s after the first full window, past a cold JVM's first
 *       second), a probe admits requests up to {@code min} only, until {@value
 *       #WINDOW_MIN_SAMPLES} requests admitted since it began have completed (a request's
 *       admission is its completion time less its latency, so those admitted over {@code min}
 *       before it are left out); their mean latency is the estimate until the next probe, and the
 *       limit is the learnt one again (not {@code min}): it adapts from there. A probe costs a few
 *       latencies at {@code min} every 5 s (the requests over {@code min} meanwhile are refused, or
 *       wait with {@code max-wait}); one without its samples within {@code max(1 s, 5 x the
 *       estimate)} (an idle app) gives up and keeps the estimate; one with errors (one in {@value
 *       #DROP_SHARE_DIVISOR}) cuts the limit as an error window does. Between probes the estimate
 *       is fixed, except that a window faster than it lowers it at once (the app got faster), and
 *       the first windows seed it before the first probe. A window more than twice as slow as the
 *       estimate (the gradient's floor) brings the next probe within a second: congestion, which
 *       the probe then confirms, or an app durably slower (a slow deploy), which it learns, so the
 *       limit is back near the app's workers a few seconds after a 2 x slow-down rather than
 *       minutes (the tests). Unlike a long average of the loaded latency, a measured estimate does
 *       not creep up under a lasting overload, and unlike a minimum over recent windows, it does
 *       not follow a limit that rises.
 *   <li><b>Shadow mode cannot probe</b> (it refuses nothing, so it cannot lower the concurrency):
 *       at each probe time its estimate becomes the lowest window mean since the last probe time
 *       (the app's latency at the lowest load it had in the last 5 s), and is lowered at once by a
 *       faster window in between, as in enforcing mode.
 *   <li><b>No growth while the app does not use the limit.</b> A window whose largest number in
 *       flight stayed under half the limit changes nothing: an idle app must not arrive at its
 *       next burst with a limit it never tested.
 *   <li><b>Errors are congestion.</b> A window in which at least one request in
 *       {@value #DROP_SHARE_DIVISOR} failed (a 5xx response, an exception thrown by the app, an
 *       asynchronous timeout) cuts the limit by 10% (AIMD's backoff, what Netflix's
 *       {@code AIMDLimit} and TCP do on a drop) and leaves the estimates alone: a timeout's latency
 *       says how long the client waited, not what the app needs.
 * </ul>
 *
 * <p>Netflix's library was not taken as a dependency: its limiters hold their own state per
 * limiter and lock, where Tollgate keeps one state per key in its bounded stores, under the
 * key's monitor, with a manual clock for tests; the arithmetic is the few lines above.
 *
 * <p>A request over the limit is refused at once, or, with {@code max-wait}, waits for a permit
 * at most that long in a queue at most as long as the limit (woken when a permit is given back or
 * the limit grows, roughly in order; {@link PermitQueue}). A refusal's {@code Retry-After} is short
 * and jittered: 1, 2 or 3 seconds in turn, so that refused clients do not come back at once.
 *
 * <p>In shadow mode ({@link #AdaptiveConcurrency(int, int, int, long, boolean, Listener)} with
 * {@code shadow}) every request takes a permit, over the limit or not, since every request runs:
 * the limit adapts to the real load, and the requests over it are reported as would-refuse.
 *
 * <p>It is a property of one instance of the app (its own latency, its own threads): the state
 * lives in this process only, never in a shared store.
 */
public final class AdaptiveConcurrency implements RateLimitAlgorithm<AdaptiveConcurrency.State> {

  /** {@code min} when not given: a few requests always pass, one slow request cannot block all. */
  public static final int DEFAULT_MIN = 4;
  /** {@code initial} when not given: Netflix's initial limit. */
  public static final int DEFAULT_INITIAL = 20;
  /** {@code max} when not given: the default thread pool of Tomcat and Jetty is 200. */
  public static final int DEFAULT_MAX = 200;
  /** The longest {@code max-wait}: a waiting request keeps a server thread busy. */
  public static final long MAX_WAIT_CAP_NANOS = TimeUnit.SECONDS.toNanos(10);

  static final int WINDOW_MIN_SAMPLES = 10;
  static final long WINDOW_MIN_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
  static final long WINDOW_MAX_NANOS = TimeUnit.SECONDS.toNanos(1);
  /** The first probe, counted from the first full window: after the JVM's cold first second. */
  static final long FIRST_PROBE_NANOS = TimeUnit.SECONDS.toNanos(2);
  /** The time between probes, jittered by {@value #PROBE_JITTER} either way. */
  static final long PROBE_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(5);
  static final double PROBE_JITTER = 0.2;
  /** A window more than twice as slow as the estimate brings the next probe this close. */
  static final long PROBE_SOON_NANOS = TimeUnit.SECONDS.toNanos(1);
  /** A probe that has not got its samples by then (or 5 x the estimate) gives up. */
  static final long PROBE_MAX_NANOS = TimeUnit.SECONDS.toNanos(1);
  static final double SMOOTHING = 0.2;
  static final double MIN_GRADIENT = 0.5;
  static final double BACKOFF = 0.9;
  static final int DROP_SHARE_DIVISOR = 10;
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
  private static final long IDLE_NANOS = TimeUnit.HOURS.toNanos(1);

  /**
   * Told when a key's limit has moved by more than a factor of 2 since it was last told (under the
   * key's monitor: it must be quick).
   */
  public interface Listener {
    /** Returns whether it took note (logged): the next move is measured from here if so. */
    boolean limitMoved(int from, State state);

    /** Takes note of every move, telling no one (a class, not a lambda: made at start). */
    Listener NONE = new Listener() {
      @Override
      public boolean limitMoved(int from, State state) {
        return true;
      }
    };
  }

  /**
   * A key's limiter: the permits held, the limit, the latency estimates, the window being filled
   * and the probe. Read without its monitor only by the metrics, which may see a moment's mix.
   */
  public static final class State extends KeyState {
    int inFlight;
    int waiters;
    /** The learnt limit; during a probe, requests are admitted up to {@code min} instead. */
    double limit;
    /** The no-load latency estimate (ns), from the last probe; 0 before the first window. */
    double noLoadRtt;
    /** The last window's mean latency (ns); 0 before the first window. */
    double shortRtt;
    long windowStart;
    long windowEnd;
    boolean windowStarted;
    int samples;
    long rttSum;
    int drops;
    int maxInFlight;
    int lastToldLimit;
    long refusals;
    /** Whether the next probe is scheduled (from the first full window on). */
    boolean probeScheduled;
    long nextProbe;
    boolean probing;
    long probeStart;
    long probeDeadline;
    int probeSamples;
    long probeRttSum;
    int probeDrops;
    /**
     * Of the requests in flight, those admitted before the probe began and still running: once
     * they have had time to end ({@code probeGraceEnd}), those left are stuck (a body sent a byte
     * a second) and the probe admits {@code min} beside them, rather than nobody.
     */
    int heldFromBeforeProbe;
    long probeGraceEnd;
    /** Shadow mode: the lowest window mean since the last probe time (ns), 0 if none. */
    double lowestSinceProbe;
    /** The probes' jitter (xorshift), seeded from the clock at the first window. */
    long jitter;

  /** The limit a request is decided against now. */
    public int limit() {
      return (int) limit;
    }

    public int inFlight() {
      return inFlight;
    }

    /** Requests waiting for a permit ({@code max-wait}). */
    public int waiters() {
      return waiters;
    }

    /** The no-load latency estimate, in nanoseconds; 0 before the first full window. */
    public long noLoadLatencyNanos() {
      return (long) noLoadRtt;
    }

    /** Whether a probe is under way (requests admitted up to {@code min} only). */
    public boolean probing() {
      return probing;
    }

    /** The last window's mean latency, in nanoseconds; 0 before the first full window. */
    public long recentLatencyNanos() {
      return (long) shortRtt;
    }
  }

  private final int min;
  private final int max;
  private final int initial;
  private final long maxWaitNanos;
  private final boolean shadow;
  private final Listener listener;
  /** The key whose limit moved last, for the metrics; for {@code key: global}, the only one. */
  private volatile State shown;

  /**
   * @throws IllegalArgumentException unless {@code 1 <= min <= initial <= max} and {@code 0 <=
   *     maxWaitNanos <= }{@link #MAX_WAIT_CAP_NANOS}
   */
  public AdaptiveConcurrency(
      int min, int initial, int max, long maxWaitNanos, boolean shadow, Listener listener) {
    if (min < 1 || min > initial || initial > max) {
      throw new IllegalArgumentException(
          "adaptive-concurrency needs 1 <= min <= initial <= max, got min " + min + ", initial "
              + initial + ", max " + max);
    }
    if (maxWaitNanos < 0 || maxWaitNanos > MAX_WAIT_CAP_NANOS) {
      throw new IllegalArgumentException("max-wait must be between 0 and 10s: " + maxWaitNanos);
    }
    this.min = min;
    this.initial = initial;
    this.max = max;
    this.maxWaitNanos = maxWaitNanos;
    this.shadow = shadow;
    this.listener = listener == null ? Listener.NONE : listener;
  }

  public int min() {
    return min;
  }

  public int max() {
    return max;
  }

  public int initial() {
    return initial;
  }

  public boolean shadow() {
    return shadow;
  }

  @Override
  public State newState() {
    State s = new State();
    s.limit = initial;
    s.lastToldLimit = initial;
    shown = s;
    return s;
  }

  /** The state the metrics show (the key whose limit moved last), or null before any request. */
  public State shownState() {
    return shown;
  }

  @Override
  public void decide(State s, long nowNanos, long cost, Verdict verdict) {
    decide(s, nowNanos, cost, verdict, false);
  }

  /** The limit requests are admitted against now: {@code min} during a probe. */
  private int admitting(State s) {
    return s.probing ? Math.min(min, (int) s.limit) : (int) s.limit;
  }

  /**
   * The requests in flight that count against {@link #admitting}: all of them, except, during a
   * probe past its grace, those from before the probe still running. Requests that never end must
   * not keep the probe from its samples: with {@code min} of them stuck it once admitted nobody
   * for a second in every five, and learnt nothing.
   */
  private static int counted(State s, long nowNanos) {
    return s.probing && nowNanos - s.probeGraceEnd >= 0
        ? s.inFlight - s.heldFromBeforeProbe
        : s.inFlight;
  }

  private void decide(State s, long nowNanos, long cost, Verdict verdict, boolean queued) {
    if (s.probing && nowNanos - s.probeDeadline >= 0) {
      endProbe(s, nowNanos); // no samples came (an idle app): back to the learnt limit
    }
    int limit = admitting(s);
    int counted = counted(s, nowNanos);
    boolean room = counted + cost <= limit && (queued || s.waiters == 0);
    if (room || shadow) {
      s.inFlight += (int) cost;
      if (s.inFlight > s.maxInFlight) {
        s.maxInFlight = s.inFlight;
      }
    }
    if (room) {
      verdict.allow(Math.max(0, limit - counted - cost), 0);
    } else {
      long retryAfter = SECOND * (1 + (s.refusals++ % 3));
      verdict.refuse(Math.max(0, limit - counted), retryAfter, retryAfter);
    }
  }

  /** Gives a permit back without a sample: a request refused by another rule, or a failure. */
  @Override
  public void release(State s, long nowNanos, long cost) {
    s.inFlight = (int) Math.max(0, s.inFlight - cost);
    s.heldFromBeforeProbe = Math.min(s.heldFromBeforeProbe, s.inFlight);
    if (s.waiters > 0) {
      s.notify(); // the caller holds the monitor: waiters exist only in a store that holds it
    }
  }

  /**
   * A request the rule admitted has ended after {@code latencyNanos} (from its admission), failed
   * or not: its permit is given back and its latency sampled; at the end of a window the limit
   * moves.
   */
  @Override
  public void complete(State s, long nowNanos, long cost, long latencyNanos, boolean failed) {
    if (s.probing && nowNanos - Math.max(0, latencyNanos) - s.probeStart < 0) {
      // one of those admitted before the probe has ended: no longer one to count out
      s.heldFromBeforeProbe = (int) Math.max(0, s.heldFromBeforeProbe - cost);
    }
    release(s, nowNanos, cost);
    sample(s, nowNanos, latencyNanos, failed);
  }

  /**
   * Adds one sample to the probe under way (if the request was admitted during it), or to the
   * window, closing the window first when it is due.
   */
  void sample(State s, long nowNanos, long latencyNanos, boolean failed) {
    if (s.probing) {
      if (nowNanos - s.probeDeadline >= 0) {
        endProbe(s, nowNanos);
      } else {
        // admitted at nowNanos - latencyNanos: a request admitted before the probe, over min,
        // says nothing about the latency at min
        if (nowNanos - Math.max(0, latencyNanos) - s.probeStart >= 0) {
          if (failed) {
            s.probeDrops++;
          } else {
            s.probeSamples++;
            s.probeRttSum += Math.max(0, latencyNanos);
          }
          if (s.probeSamples + s.probeDrops >= WINDOW_MIN_SAMPLES) {
            endProbe(s, nowNanos);
          }
        }
        return;
      }
    }
    if (!s.windowStarted) {
      s.windowStarted = true;
      s.windowStart = nowNanos;
      s.windowEnd = nowNanos + WINDOW_MIN_NANOS;
    } else if (nowNanos - s.windowEnd >= 0) {
      closeWindow(s, nowNanos);
      if (s.probing) {
        return; // the probe starts with the requests admitted from now on
      }
    }
    if (failed) {
      s.drops++;
    } else {
      s.samples++;
      s.rttSum += Math.max(0, latencyNanos);
    }
  }

  private void closeWindow(State s, long nowNanos) {
    int n = s.samples + s.drops;
    double before = s.limit;
    if (n >= WINDOW_MIN_SAMPLES) {
      if (!s.probeScheduled) {
        s.probeScheduled = true;
        s.jitter = mix(nowNanos);
        s.nextProbe = nowNanos + FIRST_PROBE_NANOS;
      }
      if (s.drops * DROP_SHARE_DIVISOR >= n) {
        s.limit = clamp(s.limit * BACKOFF);
      } else {
        double shortRtt = (double) s.rttSum / s.samples;
        s.shortRtt = shortRtt;
        if (s.noLoadRtt == 0 || shortRtt < s.noLoadRtt) {
          s.noLoadRtt = shortRtt; // the first window's seed, or an app faster than measured
        }
        if (s.lowestSinceProbe == 0 || shortRtt < s.lowestSinceProbe) {
          s.lowestSinceProbe = shortRtt;
        }
        double ratio = s.noLoadRtt / shortRtt;
        if (ratio < MIN_GRADIENT && s.nextProbe - (nowNanos + PROBE_SOON_NANOS) > 0) {
          s.nextProbe = nowNanos + PROBE_SOON_NANOS; // congestion, or an app durably slower?
        }
        if (s.maxInFlight >= s.limit / 2) {
          double gradient = Math.max(MIN_GRADIENT, Math.min(1.0, ratio));
          double target = s.limit * gradient + Math.sqrt(s.limit);
          s.limit = clamp(s.limit * (1 - SMOOTHING) + target * SMOOTHING);
        }
      }
    }
    startWindow(s, nowNanos);
    if ((int) s.limit > (int) before && s.waiters > 0) {
      s.notifyAll();
    }
    int told = s.lastToldLimit;
    int now = (int) s.limit;
    if ((now > 2 * told || 2 * now < told) && listener.limitMoved(told, s)) {
      s.lastToldLimit = now;
    }
    if (n >= WINDOW_MIN_SAMPLES && nowNanos - s.nextProbe >= 0) {
      startProbe(s, nowNanos);
    }
  }

  private void startWindow(State s, long nowNanos) {
    long length = (long) Math.min(WINDOW_MAX_NANOS, Math.max(WINDOW_MIN_NANOS, 2 * s.shortRtt));
    s.windowStart = nowNanos;
    s.windowEnd = nowNanos + length;
    s.samples = 0;
    s.drops = 0;
    s.rttSum = 0;
    s.maxInFlight = s.inFlight;
    shown = s;
  }

  /**
   * A probe: requests are admitted up to {@code min} until {@value #WINDOW_MIN_SAMPLES} of those
   * admitted since have completed; their mean latency becomes the no-load estimate. In shadow
   * mode nothing is held back: the lowest window mean since the last probe time is taken instead.
   */
  private void startProbe(State s, long nowNanos) {
    if (shadow) {
      if (s.lowestSinceProbe > 0) {
        s.noLoadRtt = s.lowestSinceProbe;
      }
      s.lowestSinceProbe = 0;
      scheduleNextProbe(s, nowNanos);
      return;
    }
    s.probing = true;
    s.probeStart = nowNanos;
    s.probeDeadline = nowNanos + Math.max(PROBE_MAX_NANOS, (long) (5 * s.noLoadRtt));
    s.probeSamples = 0;
    s.probeDrops = 0;
    s.probeRttSum = 0;
    s.heldFromBeforeProbe = s.inFlight;
    // what the requests running now need to end, as the recent windows say: those still running
    // after twice that are taken for stuck
    s.probeGraceEnd = nowNanos
        + (long) Math.min(WINDOW_MAX_NANOS, Math.max(WINDOW_MIN_NANOS, 2 * Math.max(s.shortRtt, s.noLoadRtt)));
  }

  /** The probe's end: its estimate (or an error backoff), and back to the learnt limit. */
  private void endProbe(State s, long nowNanos) {
    s.probing = false;
    int n = s.probeSamples + s.probeDrops;
    if (n >= WINDOW_MIN_SAMPLES) {
      if (s.probeDrops * DROP_SHARE_DIVISOR >= n) {
        s.limit = clamp(s.limit * BACKOFF);
      } else {
        s.noLoadRtt = (double) s.probeRttSum / s.probeSamples;
      }
    } // else too few requests to say anything: the estimate stays
    s.lowestSinceProbe = 0;
    scheduleNextProbe(s, nowNanos);
    startWindow(s, nowNanos);
    if (s.waiters > 0) {
      s.notifyAll();
    }
  }

  private static void scheduleNextProbe(State s, long nowNanos) {
    s.jitter ^= s.jitter << 13;
    s.jitter ^= s.jitter >>> 7;
    s.jitter ^= s.jitter << 17;
    double u = (s.jitter >>> 11) * 0x1.0p-53; // [0, 1)
    s.nextProbe =
        nowNanos + (long) (PROBE_INTERVAL_NANOS * (1 - PROBE_JITTER + 2 * PROBE_JITTER * u));
  }

  private static long mix(long seed) {
    long z = seed + 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    z ^= z >>> 31;
    return z == 0 ? 1 : z;
  }

  private double clamp(double limit) {
    return Math.max(min, Math.min(max, limit));
  }

  /** Waiting for a permit, for {@code max-wait}; null without one (refused at once). */
  @Override
  public PermitQueue<State> queueing() {
    if (maxWaitNanos == 0 || shadow) {
      return null;
    }
    return new PermitQueue<State>() {
      @Override
      public long maxWaitNanos() {
        return maxWaitNanos;
      }

      @Override
      public boolean joinQueue(State s) {
        if (s.waiters >= admitting(s)) {
          return false;
        }
        s.waiters++;
        return true;
      }

      @Override
      public void decideQueued(State s, long nowNanos, long cost, Verdict verdict) {
        decide(s, nowNanos, cost, verdict, true);
      }

      @Override
      public void leaveQueue(State s) {
        s.waiters--;
        if (s.waiters > 0 && s.inFlight < admitting(s)) {
          s.notify(); // a wake-up this waiter may have taken without using it
        }
      }
    };
  }

  @Override
  public boolean holdsResources(State s) {
    return s.inFlight > 0 || s.waiters > 0;
  }

  /**
   * After a reload that changed {@code min}, {@code max}, {@code initial} or {@code max-wait}: the
   * permits held stay held, and the learnt limit and latencies are kept (within the new bounds).
   */
  @Override
  public State inherit(RateLimitAlgorithm<?> previous, Object previousState, long nowNanos) {
    if (!(previous instanceof AdaptiveConcurrency)) {
      return null;
    }
    State old = (State) previousState;
    State s = newState();
    s.inFlight = old.inFlight;
    s.limit = clamp(old.limit);
    s.lastToldLimit = (int) s.limit;
    s.noLoadRtt = old.noLoadRtt;
    s.shortRtt = old.shortRtt;
    s.lowestSinceProbe = old.lowestSinceProbe;
    s.probeScheduled = old.probeScheduled;
    s.nextProbe = old.probing ? nowNanos : old.nextProbe; // a probe cut short starts again
    s.jitter = old.jitter;
    return s;
  }

  @Override
  public long idleNanosUntilFresh() {
    return IDLE_NANOS;
  }

  /** Never advertised: an adaptive rule sends no quota headers. The window names a second. */
  @Override
  public QuotaPolicy policy() {
    return QuotaPolicy.of(max, SECOND);
  }
}
