package io.tollgate.diagnostics.status;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One outbound rule (a limit on the app's own calls) as {@code status} shows it: what it is, its
 * counters since the agent started (named as in {@link OutboundCounters#COUNTERS}), and the
 * partner's waits that hold its keys now.
 */
public final class OutboundStatus {

  /** A partner's wait in force on one key of the rule. */
  public static final class Hold {
    /** The rule's key: empty for {@code global}. */
    public final String key;
    /** When the wait ends, in milliseconds since the epoch. */
    public final long untilMillis;
    /** The answer that asked for it, as the instance that read it describes it. */
    public final String answer;
    /** Learnt from this instance's own call; false: found on Redis, learnt by another instance. */
    public final boolean learntHere;

    public Hold(String key, long untilMillis, String answer, boolean learntHere) {
      this.key = key;
      this.untilMillis = untilMillis;
      this.answer = answer;
      this.learntHere = learntHere;
    }

    /** Where the wait was learnt, in words. */
    public String learntFrom() {
      return learntHere ? "this instance" : "another instance (on redis)";
    }

    Map<String, Object> toJson() {
      Map<String, Object> json = new LinkedHashMap<>();
      json.put("key", key);
      json.put("until", untilMillis);
      json.put("answer", answer);
      json.put("learntHere", learntHere);
      return json;
    }

    static Hold fromJson(Map<String, Object> json) {
      String key = Snapshots.stringOf(json.get("key"));
      String answer = Snapshots.stringOf(json.get("answer"));
      return new Hold(key == null ? "" : key, Snapshots.longOf(json.get("until")),
          answer == null ? "" : answer, Snapshots.booleanOf(json.get("learntHere")));
    }
  }

  public final String name;
  public final String algorithm;
  /** As people write it: {@code 8/1s}. */
  public final String limit;
  public final boolean shadow;
  /** {@code wait} or {@code fail}. */
  public final String onLimit;
  /** By counter name, since the agent started. */
  public final Map<String, Long> counters;
  public final List<Hold> holds;

  public OutboundStatus(String name, String algorithm, String limit, boolean shadow,
      String onLimit, Map<String, Long> counters, List<Hold> holds) {
    this.name = name;
    this.algorithm = algorithm;
    this.limit = limit;
    this.shadow = shadow;
    this.onLimit = onLimit;
    this.counters = Collections.unmodifiableMap(new LinkedHashMap<>(counters));
    this.holds = Collections.unmodifiableList(new ArrayList<>(holds));
  }

  public long counter(String counterName) {
    Long value = counters.get(counterName);
    return value == null ? 0 : value;
  }

  /** {@code enforce} or {@code shadow}, and what a call over the limit does. */
  public String mode() {
    return (shadow ? "shadow" : "enforce") + ", on-limit " + onLimit;
  }

  Map<String, Object> toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("name", name);
    json.put("algorithm", algorithm);
    json.put("limit", limit);
    json.put("mode", shadow ? "shadow" : "enforce");
    json.put("onLimit", onLimit);
    json.put("counters", new LinkedHashMap<>(counters));
    List<Object> list = new ArrayList<>();
    for (Hold hold : holds) {
      list.add(hold.toJson());
    }
    json.put("partnerHolds", list);
    return json;
  }

  static OutboundStatus fromJson(Map<String, Object> json) {
    List<Hold> holds = new ArrayList<>();
    for (Object hold : Snapshots.listOf(json.get("partnerHolds"))) {
      holds.add(Hold.fromJson(Snapshots.objectOf(hold)));
    }
    return new OutboundStatus(Snapshots.stringOf(json.get("name")),
        Snapshots.stringOf(json.get("algorithm")), Snapshots.stringOf(json.get("limit")),
        "shadow".equals(json.get("mode")), Snapshots.stringOf(json.get("onLimit")),
        Snapshots.countersOf(json.get("counters")), holds);
  }
}
