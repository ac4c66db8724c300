package io.tollgate.diagnostics.status;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where the rules count, and how that is going: {@code local} (in this JVM, always healthy), or
 * Redis with its connection, its circuit breaker, the instances that share it, and the calls it
 * did not answer (each decision decided by its rule's {@code on-failure}; the instance heartbeat's
 * calls count too) or answered too late (each decided by the rule's local share).
 */
public final class BackendStatus {

  public static final String LOCAL = "local";
  public static final String REDIS = "redis";

  /** Calls Redis did not answer: a decision's rule's on-failure decided it. */
  public static final String NOT_ANSWERED = "notAnswered";
  /** Calls Redis was alive for but answered too late: the rule's local share decided. */
  public static final String LATE = "late";
  /**
   * Redis: decisions sent batched (token-bucket and gcra decisions, several in one call when they
   * come while calls are in flight), and the calls that carried them.
   */
  public static final String BATCHED_DECISIONS = "batchedDecisions";
  public static final String BATCH_CALLS = "batchCalls";

  public final String kind;
  /** Redis: where; null for local. */
  public final String address;
  public final boolean connected;
  /** Redis: CLOSED, OPEN or HALF_OPEN; null for local. */
  public final String circuit;
  public final long circuitOpenings;
  /** Redis: decisions are failing now. */
  public final boolean failing;
  /** Redis: the instances sharing it, this one included (the last count heard). */
  public final int instances;
  /** {@link #NOT_ANSWERED}, {@link #LATE} and the batching's counts, since the backend was made. */
  public final Map<String, Long> counters;

  public BackendStatus(String kind, String address, boolean connected, String circuit,
      long circuitOpenings, boolean failing, int instances, Map<String, Long> counters) {
    this.kind = kind;
    this.address = address;
    this.connected = connected;
    this.circuit = circuit;
    this.circuitOpenings = circuitOpenings;
    this.failing = failing;
    this.instances = instances;
    this.counters = Collections.unmodifiableMap(new LinkedHashMap<>(counters));
  }

  public static BackendStatus local() {
    return new BackendStatus(LOCAL, null, true, null, 0, false, 1,
        Collections.<String, Long>emptyMap());
  }

  public boolean isRedis() {
    return REDIS.equals(kind);
  }

  public long counter(String name) {
    Long value = counters.get(name);
    return value == null ? 0 : value;
  }

  Map<String, Object> toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("kind", kind);
    if (isRedis()) {
      json.put("address", address);
      json.put("connected", connected);
      json.put("circuit", circuit);
      json.put("circuitOpenings", circuitOpenings);
      json.put("failing", failing);
      json.put("instances", instances);
      json.put("counters", new LinkedHashMap<>(counters));
    }
    return json;
  }

  static BackendStatus fromJson(Map<String, Object> json) {
    String kind = Snapshots.stringOf(json.get("kind"));
    if (!REDIS.equals(kind)) {
      return local();
    }
    return new BackendStatus(kind, Snapshots.stringOf(json.get("address")),
        Snapshots.booleanOf(json.get("connected")), Snapshots.stringOf(json.get("circuit")),
        Snapshots.longOf(json.get("circuitOpenings")), Snapshots.booleanOf(json.get("failing")),
        (int) Snapshots.longOf(json.get("instances")), Snapshots.countersOf(json.get("counters")));
  }
}
