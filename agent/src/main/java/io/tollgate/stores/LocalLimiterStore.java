package io.tollgate.stores;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Weigher;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.KeyState;
import io.tollgate.limiters.PermitQueue;
import io.tollgate.limiters.RateLimitAlgorithm;
import io.tollgate.limiters.Verdict;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * One rule's keys in this process: a bounded Caffeine cache of per-key state, each decided under
 * that key's own monitor.
 *
 * <p>Bounded twice: at most {@code maxKeys} keys, and each key forgotten once it has been idle for
 * as long as its state takes to become fresh again, when forgetting it loses nothing.
 *
 * <p>At the bound, Caffeine's W-TinyLFU policy decides who goes: a new key is admitted only if it
 * has been seen more often (by a frequency sketch that outlives eviction) than the key it would
 * displace. A key that is being limited is, by definition, being hit often, so a flood of distinct
 * one-off keys (spoofed API keys, a botnet's addresses) displaces each other, not it: eviction
 * cannot cheaply hand a limited key a fresh budget. A key whose state holds resources (the
 * concurrency algorithm's permits, {@link RateLimitAlgorithm#holdsResources}) weighs nothing and is
 * never forgotten while it holds them, so it is neither evicted nor dropped before its requests
 * end.
 *
 * <p>Idle keys are forgotten by the store itself, not by Caffeine's expiry: with any expiry,
 * Caffeine reads a clock, writes the entry's access time and records the read for its policy on
 * every hit, which cost more than the decision (see benchmarks/HISTORY.md, section 1). Instead
 * each decision writes a coarse tick (about a second) into its state ({@link KeyState}), under the
 * monitor it holds anyway, and the store sweeps its keys once per idle period, a few keys per
 * decision (so no request pays for a whole sweep), dropping those idle for longer than
 * {@link RateLimitAlgorithm#idleNanosUntilFresh()}. Without expiry, and while under half full, a
 * Caffeine hit is a plain hash lookup.
 *
 * <p>Cache maintenance runs on the calling thread (no pool of the application's is borrowed). No
 * global lock: two requests contend only when they share a key, and then only for the few
 * arithmetic operations of one decision. A hit allocates nothing.
 */
public final class LocalLimiterStore<S> implements LimiterStore {

  /** A tick is 2^30 ns, about 1.07 s: idle periods are whole seconds or more. */
  private static final int TICK_SHIFT = 30;
  /** How many stores back a reload's new store may still take a key over from. */
  static final int MAX_PREDECESSORS = 3;
  /** How many keys one decision examines while a sweep is under way. */
  static final int SWEEP_CHUNK = 64;

  private final RateLimitAlgorithm<S> algorithm;
  /** How a request over the limit waits for a permit; null: refused at once. */
  private final PermitQueue<S> queue;
  private final Clock clock;
  private final long maxKeys;
  /**
   * The keys' states: null until the rule first stores a key ({@link #states()}). A file of
   * thousands of rules (one per tenant) builds, validates and reloads without a cache per rule,
   * each ~3 KB and the costliest part of building a rule, and a rule that never decides (most
   * tenants are quiet) never holds one; Caffeine's classes load at the first decision.
   */
  private volatile Cache<String, S> states;
  /** Makes a key's state: fresh, or (after a reload) carried over from the store taken over. */
  private Function<String, S> newState;
  private final long originNanos;
  /**
   * A key unused for this many ticks has been idle for more than
   * {@link RateLimitAlgorithm#idleNanosUntilFresh()} (the extra tick covers the rounding of both
   * ends down to a tick).
   */
  private final int idleTicks;

  /** The tick from which the next decision sweeps (while a sweep is under way: now). */
  private volatile int sweepDueTick;
  /** Held by the one thread sweeping; the others do not wait for it. */
  private final AtomicBoolean sweeping = new AtomicBoolean();
  /** Where the sweep under way has got to; null between sweeps. Guarded by {@link #sweeping}. */
  private Iterator<Map.Entry<String, S>> sweepCursor;

  /** The store this one took over at a reload, while its keys may still be carried over. */
  private volatile Predecessor<S> predecessor;
  /** The store that took this one over: releases and corrections of keys handed to it go there. */
  private volatile LocalLimiterStore<?> successor;

  /**
   * How a state written by another algorithm (the same rule's before a reload, {@code writer})
   * becomes a state of this store's ({@link RateLimitAlgorithm#inherit}); null to start afresh.
   */
  public interface Carry<S> {
    S carry(RateLimitAlgorithm<?> writer, Object state, long nowNanos);
  }

  /** The store taken over, until its states would all be fresh again anyway. */
  private static final class Predecessor<S> {
    final LocalLimiterStore<?> store;
    final Carry<S> carry;
    final long untilNanos;

    Predecessor(LocalLimiterStore<?> store, Carry<S> carry, long untilNanos) {
      this.store = store;
      this.carry = carry;
      this.untilNanos = untilNanos;
    }
  }

  public LocalLimiterStore(RateLimitAlgorithm<S> algorithm, Clock clock, long maxKeys) {
    if (!(algorithm.newState() instanceof KeyState)) {
      throw new IllegalArgumentException(
          "a local store keeps states that extend KeyState; "
              + algorithm.getClass().getName() + "'s do not");
    }
    this.algorithm = algorithm;
    this.queue = algorithm.queueing();
    this.clock = clock;
    this.maxKeys = maxKeys;
    this.newState = new FreshState<>(algorithm);
    this.originNanos = clock.nowNanos();
    long idle = Math.max(0, algorithm.idleNanosUntilFresh());
    this.idleTicks = (int) Math.min(Integer.MAX_VALUE / 4, ceilTicks(idle) + 1);
    this.sweepDueTick = idleTicks;
  }

  /**
   * At a reload that changed the rule's parameters (not its kind of algorithm, nor its keys): this
   * new store takes over {@code previous}'s keys, each carried over by {@code carry} when it is
   * first used here, so that no key starts afresh because its limit changed (see {@link
   * RateLimitAlgorithm#inherit}). The old store's states stay in memory until the first use of
   * each key, or until they would all be fresh anyway ({@code previous}'s idle period), when the
   * old store is let go. A release or correction that reaches the old store for a key it has handed
   * over goes on to this one. After several reloads in a row, a key unused between them is carried
   * over from the state it was last written in, as the Redis scripts do; at most {@value
   * #MAX_PREDECESSORS} stores back, so that frequent reloads of a rule with a long idle period (a
   * monthly quota) do not keep many old stores in memory: a key unused for more reloads starts
   * afresh.
   */
  public void takeOver(LocalLimiterStore<?> previous, Carry<S> carry) {
    LocalLimiterStore<?> last = previous;
    for (int depth = 1; depth < MAX_PREDECESSORS && last.predecessor != null; depth++) {
      last = last.predecessor.store;
    }
    last.predecessor = null;
    long until = clock.nowNanos() + Math.max(0, previous.algorithm.idleNanosUntilFresh());
    predecessor = new Predecessor<>(previous, carry, until);
    previous.successor = this;
    newState = this::stateFor;
  }

  /**
   * {@link #takeOver} with this store's algorithm carrying each state over ({@link
   * RateLimitAlgorithm#inherit}).
   */
  public void inheritFrom(LocalLimiterStore<?> previous) {
    takeOver(previous, algorithm::inherit);
  }

  /** A new key's state: carried over from the predecessor while there is one, else fresh. */
  private S stateFor(String key) {
    S carried = carriedFromPredecessor(key, clock.nowNanos(), predecessorCarry());
    return carried != null ? carried : algorithm.newState();
  }

  private Carry<S> predecessorCarry() {
    Predecessor<S> p = predecessor;
    return p == null ? null : p.carry;
  }

  /**
   * The key's state from the stores taken over (the nearest that has it, where it is forgotten),
   * made one of the taker's by {@code carry} under the state's monitor; null when none has it.
   */
  private <R> R carriedFromPredecessor(String key, long nowNanos, Carry<R> carry) {
    Predecessor<S> p = predecessor;
    if (p == null || carry == null) {
      return null;
    }
    if (nowNanos - p.untilNanos >= 0) {
      // Every state it still holds would be fresh by now: let it go.
      predecessor = null;
      newState = new FreshState<>(algorithm);
      return null;
    }
    return p.store.handOver(key, nowNanos, carry);
  }

  /** Gives the key's state (or, if none, its predecessors') to a successor, made one by {@code carry}. */
  private <R> R handOver(String key, long nowNanos, Carry<R> carry) {
    Cache<String, S> made = states;
    S state = made == null ? null : made.asMap().remove(key);
    if (state == null) {
      return carriedFromPredecessor(key, nowNanos, carry);
    }
    synchronized (state) {
      // A decision on this store that holds the state sees the mark and looks the key up again
      // here: the few requests decided on the old rules after the reload count here.
      ((KeyState) state).markForgotten();
      state.notifyAll(); // requests waiting for a permit here decide again (max-wait)
      return carry.carry(algorithm, state, nowNanos);
    }
  }

  /** The keys' states, made at the first call: a plain volatile read once they exist. */
  private Cache<String, S> states() {
    Cache<String, S> made = states;
    return made != null ? made : makeStates();
  }

  private synchronized Cache<String, S> makeStates() {
    Cache<String, S> made = states;
    if (made == null) {
      RateLimitAlgorithm<S> weighed = algorithm;
      made = newCache(maxKeys, new Weigher<String, S>() {
        // A class, not a lambda: made at the first decision, on the first request's thread
        @Override
        public int weigh(String key, S state) {
          return weighed.holdsResources(state) ? 0 : 1;
        }
      });
      states = made;
    }
    return made;
  }

  /**
   * A new key's state, fresh from the algorithm. The functions here that a start or the first
   * decision makes are classes, not lambdas: a lambda's call site is linked at its first run,
   * which spins a class where loading one from the agent's jar costs less.
   */
  private static final class FreshState<S> implements Function<String, S> {
    private final RateLimitAlgorithm<S> algorithm;

    FreshState(RateLimitAlgorithm<S> algorithm) {
      this.algorithm = algorithm;
    }

    @Override
    public S apply(String ignored) {
      return algorithm.newState();
    }
  }

  /** Caffeine's maintenance runs on the thread that calls it, as the decisions need. */
  private static final Executor ON_THE_CALLING_THREAD = new Executor() {
    @Override
    public void execute(Runnable task) {
      task.run();
    }
  };

  /** A store's cache of keys: one builder, so that {@link #loadCacheClasses} makes the same kind. */
  private static <S> Cache<String, S> newCache(long maxKeys, Weigher<String, S> weigher) {
    return Caffeine.newBuilder()
        .maximumWeight(maxKeys)
        .weigher(weigher)
        .executor(ON_THE_CALLING_THREAD)
        .build();
  }

  /**
   * Makes a throwaway cache of the kind a store makes at its first decision, and stores one key in
   * it: Caffeine's classes (some 70, and their static set-up) are loaded and initialised on the
   * calling thread. The agent's start-up thread calls this once the engine is installed, so that
   * the application's first request, which made the first store's cache, does not load them
   * (about half of the agent's work on Spring Boot 3's first request). Nothing is kept.
   */
  public static void loadCacheClasses() {
    Cache<String, String> cache = newCache(1, new Weigher<String, String>() {
      @Override
      public int weigh(String key, String state) {
        return 1;
      }
    });
    cache.get("", Function.identity());
  }

  /** The key's state if the store has one, without making the cache. */
  private S stateIfPresent(String key) {
    Cache<String, S> made = states;
    return made == null ? null : made.getIfPresent(key);
  }

  private static long ceilTicks(long nanos) {
    return (nanos >>> TICK_SHIFT) + ((nanos & ((1L << TICK_SHIFT) - 1)) == 0 ? 0 : 1);
  }

  /** The store's coarse time: ticks since it was made (0 if the clock went back before that). */
  private int tickOf(long nowNanos) {
    long ticks = (nowNanos - originNanos) >> TICK_SHIFT;
    return ticks <= 0 ? 0 : (int) Math.min(ticks, Integer.MAX_VALUE / 2);
  }

  @Override
  public void decide(String key, long cost, Verdict verdict) {
    decide(key, cost, verdict, Long.MAX_VALUE);
  }

  /** Only while waiting for a permit ({@code max-wait}): every other decision is a local update. */
  @Override
  public boolean mayHold() {
    return queue != null;
  }

  /**
   * With {@code max-wait} ({@link RateLimitAlgorithm#queueing}), a request over the limit waits for
   * a permit under the key's monitor ({@link Object#wait} gives it up), at most {@code max-wait}
   * and never past {@code holdDeadlineNanos}; other keys and the releases of this one go on.
   */
  @Override
  public void decide(String key, long cost, Verdict verdict, long holdDeadlineNanos) {
    while (!decideOn(states().get(key, newState), key, cost, verdict, holdDeadlineNanos)) {
      // a sweep dropped the state between the lookup and the monitor: look the key up again
    }
  }

  /** Decides on {@code state}; false, having done nothing, when a sweep has just dropped it. */
  private boolean decideOn(
      S state, String key, long cost, Verdict verdict, long holdDeadlineNanos) {
    long now;
    boolean held;
    boolean holds;
    synchronized (state) {
      KeyState mark = (KeyState) state;
      if (mark.isForgotten()) {
        return false;
      }
      now = clock.nowNanos();
      markUsed(mark, now);
      held = algorithm.holdsResources(state);
      algorithm.decide(state, now, cost, verdict);
      if (!verdict.allowed && queue != null && !awaitPermit(state, cost, verdict, holdDeadlineNanos)) {
        return false;
      }
      holds = algorithm.holdsResources(state);
    }
    if (held != holds) {
      reweigh(key, state);
    }
    sweepIfDue(now);
    return true;
  }

  /**
   * A request refused for want of a permit waits for one in the algorithm's queue, if it has room,
   * under the state's monitor (held by the caller); {@code verdict} is then the last decision.
   * False when the state was handed to a reload's new store meanwhile (nothing taken here): the
   * caller decides again on the key's new state.
   */
  private boolean awaitPermit(S state, long cost, Verdict verdict, long holdDeadlineNanos) {
    long start = System.nanoTime();
    long wait = queue.maxWaitNanos();
    if (holdDeadlineNanos != Long.MAX_VALUE) {
      wait = Math.min(wait, holdDeadlineNanos - start);
    }
    if (wait <= 0 || !queue.joinQueue(state)) {
      return true;
    }
    long end = start + wait;
    try {
      while (true) {
        long left = end - System.nanoTime();
        if (left <= 0) {
          return true;
        }
        TimeUnit.NANOSECONDS.timedWait(state, left);
        if (((KeyState) state).isForgotten()) {
          return false;
        }
        queue.decideQueued(state, clock.nowNanos(), cost, verdict);
        if (verdict.allowed) {
          return true;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // refused now; the application sees the interrupt
      return true;
    } finally {
      queue.leaveQueue(state);
    }
  }

  @Override
  public void release(String key, long cost) {
    complete(key, cost, -1, false);
  }

  /** A latency below 0: no sample, only the permit back ({@link #release}). */
  @Override
  public void complete(String key, long cost, long latencyNanos, boolean failed) {
    S state = stateIfPresent(key);
    LocalLimiterStore<?> next = successor;
    if (state == null && next != null) {
      next.complete(key, cost, latencyNanos, failed); // decided here before a reload, handed over since
      return;
    }
    if (state != null) {
      boolean held;
      boolean holds;
      synchronized (state) {
        KeyState mark = (KeyState) state;
        if (mark.isForgotten()) {
          // Swept states held nothing; one handed over at a reload holds on in the successor.
          if (next != null) {
            next.complete(key, cost, latencyNanos, failed);
          }
          return;
        }
        long now = clock.nowNanos();
        markUsed(mark, now);
        held = algorithm.holdsResources(state);
        if (latencyNanos < 0) {
          algorithm.release(state, now, cost);
        } else {
          algorithm.complete(state, now, cost, latencyNanos, failed);
        }
        holds = algorithm.holdsResources(state);
      }
      if (held != holds) {
        reweigh(key, state);
      }
    }
  }

  @Override
  public void adjust(String key, long delta) {
    if (delta == 0) {
      return;
    }
    while (true) {
      // A refund on a forgotten key has nothing to give back; a charge on one starts it afresh.
      LocalLimiterStore<?> next = successor;
      if (next != null && stateIfPresent(key) == null) {
        next.adjust(key, delta); // decided here before a reload, handed over since
        return;
      }
      S state = delta > 0 ? states().get(key, newState) : stateIfPresent(key);
      if (state == null) {
        return;
      }
      synchronized (state) {
        KeyState mark = (KeyState) state;
        if (mark.isForgotten()) {
          continue;
        }
        long now = clock.nowNanos();
        markUsed(mark, now);
        algorithm.adjust(state, now, delta);
        return;
      }
    }
  }

  /** Something done to one key's state under its monitor, at the store's time. */
  interface StateUpdate<S> {
    void apply(S state, long nowNanos);
  }

  /**
   * Runs {@code update} on the key's state under its monitor: on a fresh state when the store has
   * none and {@code create}, else not at all. What {@link LocalBudgetGroup} decides and corrects
   * with; {@link #decide} is the same, without the allocation of an update.
   */
  void update(String key, boolean create, StateUpdate<S> update) {
    while (true) {
      S state = create ? states().get(key, newState) : stateIfPresent(key);
      if (state == null) {
        return;
      }
      long now;
      boolean held;
      boolean holds;
      synchronized (state) {
        KeyState mark = (KeyState) state;
        if (mark.isForgotten()) {
          continue;
        }
        now = clock.nowNanos();
        markUsed(mark, now);
        held = algorithm.holdsResources(state);
        update.apply(state, now);
        holds = algorithm.holdsResources(state);
      }
      if (held != holds) {
        reweigh(key, state);
      }
      sweepIfDue(now);
      return;
    }
  }

  /**
   * Writes the key's tick only when it has changed (about once a second per busy key), so that a
   * decision that writes nothing else (a refusal) leaves the state's cache line clean.
   */
  private void markUsed(KeyState mark, long nowNanos) {
    int tick = tickOf(nowNanos);
    if (mark.lastUsedTick() != tick) {
      mark.markUsed(tick);
    }
  }

  /** Has Caffeine weigh the key again, now that it holds (or no longer holds) resources. */
  private void reweigh(String key, S state) {
    states().asMap().replace(key, state, state);
  }

  /** One volatile read per decision; a share of the sweep when one is due. */
  private void sweepIfDue(long nowNanos) {
    int now = tickOf(nowNanos);
    if (now >= sweepDueTick) {
      sweep(now, SWEEP_CHUNK, false);
    }
  }

  /**
   * Examines up to {@code budget} keys of the sweep under way (starting one if none is, or if
   * {@code fromStart}), dropping
   * the idle ones; when the sweep reaches the end, the next is due one idle period later. Returns
   * at once if another thread is sweeping.
   */
  private void sweep(int now, int budget, boolean fromStart) {
    Cache<String, S> made = states;
    if (made == null) {
      sweepDueTick = now + idleTicks; // no key yet: nothing to sweep
      return;
    }
    if (!sweeping.compareAndSet(false, true)) {
      return;
    }
    try {
      if (sweepCursor == null || fromStart) {
        sweepCursor = made.asMap().entrySet().iterator();
      }
      for (int n = 0; n < budget && sweepCursor.hasNext(); n++) {
        Map.Entry<String, S> entry = sweepCursor.next();
        forgetIfIdle(entry.getKey(), entry.getValue(), now);
      }
      if (sweepCursor.hasNext()) {
        sweepDueTick = now; // more to do: the next decision goes on
      } else {
        sweepCursor = null;
        sweepDueTick = now + idleTicks;
      }
    } finally {
      sweeping.set(false);
    }
  }

  private void forgetIfIdle(String key, S state, int now) {
    synchronized (state) {
      KeyState mark = (KeyState) state;
      if (mark.isForgotten()
          || now - mark.lastUsedTick() < idleTicks
          || algorithm.holdsResources(state)) {
        return;
      }
      // Under the monitor: a decision that looked this state up before it left the cache sees
      // the mark and looks the key up again, so no decision is lost on a dropped state.
      if (states().asMap().remove(key, state)) {
        mark.markForgotten();
      }
    }
  }

  @Override
  public long estimatedKeys() {
    Cache<String, S> made = states;
    return made == null ? 0 : made.estimatedSize();
  }

  /** The algorithm this store decides with. */
  public RateLimitAlgorithm<S> algorithm() {
    return algorithm;
  }

  /** The key's state now, or null when it has none; read without its monitor (a moment's mix). */
  public S peek(String key) {
    return stateIfPresent(key);
  }

  /** Whether this store has state for the key now; for tests. */
  public boolean tracks(String key) {
    return stateIfPresent(key) != null;
  }

  /**
   * Sweeps every key now (dropping the idle ones) and runs Caffeine's pending eviction; for tests
   * and memory measurements.
   */
  public void cleanUp() {
    sweep(tickOf(clock.nowNanos()), Integer.MAX_VALUE, true);
    Cache<String, S> made = states;
    if (made != null) {
      made.cleanUp();
    }
  }
}
