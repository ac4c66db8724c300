package io.tollgate.diagnostics.status;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a running agent says about itself at one moment: its rules with their counters since it
 * started, its outbound rules with theirs and the partner's waits in force, its backend's health, and the problems it knows of (a rules file not in force, Redis
 * down). The agent writes it as JSON for the {@code status} command ({@link #toJson}); the command
 * reads two of them ({@link #fromJson}) and shows the difference as rates ({@link StatusView}).
 */
public final class StatusSnapshot {

  public final String version;
  public final long pid;
  /** The agent JVM's {@link System#nanoTime}: two snapshots of one JVM give the interval. */
  public final long takenNanos;
  public final long takenAtMillis;
  /** When the agent started (wall clock), so "since the agent started" has a date. */
  public final long agentStartedAtMillis;
  /** The rules file in use, or null when none was given. */
  public final String rulesFile;
  /** Each a sentence; empty when all is well. A non-empty list is exit code 1. */
  public final List<String> problems;
  public final List<RuleStatus> rules;
  /** The outbound rules: limits on the app's own calls to other services. */
  public final List<OutboundStatus> outbound;
  public final BackendStatus backend;

  public StatusSnapshot(String version, long pid, long takenNanos, long takenAtMillis,
      long agentStartedAtMillis, String rulesFile, List<String> problems, List<RuleStatus> rules,
      BackendStatus backend) {
    this(version, pid, takenNanos, takenAtMillis, agentStartedAtMillis, rulesFile, problems, rules,
        Collections.emptyList(), backend);
  }

  public StatusSnapshot(String version, long pid, long takenNanos, long takenAtMillis,
      long agentStartedAtMillis, String rulesFile, List<String> problems, List<RuleStatus> rules,
      List<OutboundStatus> outbound, BackendStatus backend) {
    this.version = version;
    this.pid = pid;
    this.takenNanos = takenNanos;
    this.takenAtMillis = takenAtMillis;
    this.agentStartedAtMillis = agentStartedAtMillis;
    this.rulesFile = rulesFile;
    this.problems = Collections.unmodifiableList(new ArrayList<>(problems));
    this.rules = Collections.unmodifiableList(new ArrayList<>(rules));
    this.outbound = Collections.unmodifiableList(new ArrayList<>(outbound));
    this.backend = backend;
  }

  /** This rule's status, or null when it is not in force in this snapshot. */
  public RuleStatus rule(String name) {
    for (RuleStatus rule : rules) {
      if (rule.name.equals(name)) {
        return rule;
      }
    }
    return null;
  }

  /** This outbound rule's status, or null when it is not in force in this snapshot. */
  public OutboundStatus outboundRule(String name) {
    for (OutboundStatus rule : outbound) {
      if (rule.name.equals(name)) {
        return rule;
      }
    }
    return null;
  }

  Map<String, Object> toJsonObject() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("tollgate", version);
    json.put("pid", pid);
    json.put("takenNanos", takenNanos);
    json.put("takenAt", takenAtMillis);
    json.put("agentStartedAt", agentStartedAtMillis);
    json.put("rulesFile", rulesFile);
    json.put("problems", new ArrayList<Object>(problems));
    List<Object> ruleList = new ArrayList<>();
    for (RuleStatus rule : rules) {
      ruleList.add(rule.toJson());
    }
    json.put("rules", ruleList);
    List<Object> outboundList = new ArrayList<>();
    for (OutboundStatus rule : outbound) {
      outboundList.add(rule.toJson());
    }
    json.put("outbound", outboundList);
    json.put("backend", backend.toJson());
    return json;
  }

  public String toJson() {
    return Json.write(toJsonObject());
  }

  /** The snapshot an agent wrote; IllegalArgumentException when the text is not one. */
  public static StatusSnapshot fromJson(String text) {
    Object parsed = Json.read(text);
    if (!(parsed instanceof Map)) {
      throw new IllegalArgumentException("not a status snapshot: " + text);
    }
    Map<String, Object> json = Snapshots.objectOf(parsed);
    if (!json.containsKey("tollgate")) {
      throw new IllegalArgumentException("not a status snapshot: " + text);
    }
    List<String> problems = new ArrayList<>();
    for (Object problem : Snapshots.listOf(json.get("problems"))) {
      problems.add(String.valueOf(problem));
    }
    List<RuleStatus> rules = new ArrayList<>();
    for (Object rule : Snapshots.listOf(json.get("rules"))) {
      rules.add(RuleStatus.fromJson(Snapshots.objectOf(rule)));
    }
    List<OutboundStatus> outbound = new ArrayList<>();
    for (Object rule : Snapshots.listOf(json.get("outbound"))) {
      outbound.add(OutboundStatus.fromJson(Snapshots.objectOf(rule)));
    }
    return new StatusSnapshot(Snapshots.stringOf(json.get("tollgate")),
        Snapshots.longOf(json.get("pid")), Snapshots.longOf(json.get("takenNanos")),
        Snapshots.longOf(json.get("takenAt")), Snapshots.longOf(json.get("agentStartedAt")),
        Snapshots.stringOf(json.get("rulesFile")), problems, rules, outbound,
        BackendStatus.fromJson(Snapshots.objectOf(json.get("backend"))));
  }
}
