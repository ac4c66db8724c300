package io.tollgate.diagnostics.status;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One rule (or one budget of a rule with several limits) as {@code status} shows it: what it is
 * (algorithm, limit, enforced or shadow), its counters since the agent started (named as in
 * {@link RuleCounters#COUNTERS}), its top keys (as in {@link RuleCounters#KEY_LISTS}) and, when it
 * leases tokens from Redis, its leases' counters (as in {@link LeaseStatusCounters#COUNTERS}).
 */
public final class RuleStatus {

  public final String name;
  public final String algorithm;
  /** As people write it: {@code 100/1m}, {@code 20 in flight}. */
  public final String limit;
  public final boolean shadow;
  /** By counter name, since the agent started. */
  public final Map<String, Long> counters;
  /** By key list name, heaviest first. */
  public final Map<String, List<KeyCount>> keys;
  /** {@code lease-tokens} when the rule leases tokens from Redis, else 0. */
  public final long leaseTokens;
  /** Its leases' counters by name ({@link LeaseStatusCounters#COUNTERS}); empty without leases. */
  public final Map<String, Long> leases;

  public RuleStatus(String name, String algorithm, String limit, boolean shadow,
      Map<String, Long> counters, Map<String, List<KeyCount>> keys) {
    this(name, algorithm, limit, shadow, counters, keys, 0, Map.of());
  }

  public RuleStatus(String name, String algorithm, String limit, boolean shadow,
      Map<String, Long> counters, Map<String, List<KeyCount>> keys, long leaseTokens,
      Map<String, Long> leases) {
    this.leaseTokens = leaseTokens;
    this.leases = Collections.unmodifiableMap(new LinkedHashMap<>(leases));
    this.name = name;
    this.algorithm = algorithm;
    this.limit = limit;
    this.shadow = shadow;
    this.counters = Collections.unmodifiableMap(new LinkedHashMap<>(counters));
    this.keys = Collections.unmodifiableMap(new LinkedHashMap<>(keys));
  }

  public long counter(String counterName) {
    Long value = counters.get(counterName);
    return value == null ? 0 : value;
  }

  /** A counter of the rule's leases; 0 when it has no such counter (or no leases). */
  public long leaseCounter(String counterName) {
    Long value = leases.get(counterName);
    return value == null ? 0 : value;
  }

  public boolean leases() {
    return leaseTokens > 0;
  }

  public List<KeyCount> keys(String listName) {
    List<KeyCount> list = keys.get(listName);
    return list == null ? Collections.<KeyCount>emptyList() : list;
  }

  public String mode() {
    return shadow ? "shadow" : "enforce";
  }

  Map<String, Object> toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("name", name);
    json.put("algorithm", algorithm);
    json.put("limit", limit);
    json.put("mode", mode());
    json.put("counters", new LinkedHashMap<>(counters));
    Map<String, Object> lists = new LinkedHashMap<>();
    for (Map.Entry<String, List<KeyCount>> e : keys.entrySet()) {
      List<Object> entries = new ArrayList<>();
      for (KeyCount k : e.getValue()) {
        entries.add(k.toJson());
      }
      lists.put(e.getKey(), entries);
    }
    json.put("topKeys", lists);
    if (leases()) {
      json.put("leaseTokens", leaseTokens);
      json.put("leases", new LinkedHashMap<>(leases));
    }
    return json;
  }

  static RuleStatus fromJson(Map<String, Object> json) {
    Map<String, List<KeyCount>> lists = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : Snapshots.objectOf(json.get("topKeys")).entrySet()) {
      List<KeyCount> entries = new ArrayList<>();
      for (Object k : Snapshots.listOf(e.getValue())) {
        entries.add(KeyCount.fromJson(Snapshots.objectOf(k)));
      }
      lists.put(e.getKey(), entries);
    }
    return new RuleStatus(Snapshots.stringOf(json.get("name")),
        Snapshots.stringOf(json.get("algorithm")), Snapshots.stringOf(json.get("limit")),
        "shadow".equals(json.get("mode")), Snapshots.countersOf(json.get("counters")), lists,
        Snapshots.longOf(json.get("leaseTokens")), Snapshots.countersOf(json.get("leases")));
  }
}
