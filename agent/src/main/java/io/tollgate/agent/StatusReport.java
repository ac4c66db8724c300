package io.tollgate.agent;

import io.tollgate.config.Durations;
import io.tollgate.logging.AgentLog;
import io.tollgate.diagnostics.Version;
import io.tollgate.diagnostics.metrics.LeaseCounts;
import io.tollgate.diagnostics.metrics.RuleMetrics;
import io.tollgate.diagnostics.metrics.TollgateMetrics;
import io.tollgate.diagnostics.status.BackendStatus;
import io.tollgate.diagnostics.status.LeaseStatusCounters;
import io.tollgate.diagnostics.status.OutboundCounters;
import io.tollgate.diagnostics.status.OutboundStatus;
import io.tollgate.diagnostics.status.RuleCounters;
import io.tollgate.diagnostics.status.RuleStatus;
import io.tollgate.diagnostics.status.StatusSnapshot;
import io.tollgate.engine.RulesHolder;
import io.tollgate.limiters.AlgorithmKind;
import io.tollgate.limiters.QuotaPolicy;
import io.tollgate.outbound.OutboundGate;
import io.tollgate.outbound.OutboundRuleState;
import io.tollgate.outbound.PartnerHold;
import io.tollgate.rules.Rule;
import io.tollgate.stores.redis.InstanceRegistry;
import io.tollgate.stores.redis.RedisBackend;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * In the target JVM: the answer to {@code status}, a {@link StatusSnapshot} of the agent already
 * running, written where the command asked ({@link AgentArguments#STATUS_REPORT}). It reads what
 * the agent keeps anyway (the rules in force, their counters, the backend's state) and changes
 * nothing: no rule is loaded, no counter created, no MBean registered, nothing logged but a
 * failure to write.
 */
final class StatusReport {

  private StatusReport() {}

  static void write(RulesHolder rules, long agentStartedAtMillis, String file) {
    try {
      String json = snapshot(rules, agentStartedAtMillis).toJson();
      Files.write(Paths.get(file), json.getBytes(StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException e) {
      AgentLog.warn("cannot answer the status command (" + e + ")");
    }
  }

  static StatusSnapshot snapshot(RulesHolder holder, long agentStartedAtMillis) {
    List<String> problems = new ArrayList<>();
    List<RuleStatus> rules = new ArrayList<>();
    List<OutboundStatus> outbound = new ArrayList<>();
    BackendStatus backend = BackendStatus.local();
    String file = null;
    if (holder != null) {
      file = holder.path();
      String fileProblem = holder.fileProblem();
      if (fileProblem != null) {
        problems.add(fileProblem);
      }
      for (Rule rule : holder.current().rules()) {
        for (Rule budget : rule.allBudgets()) {
          RuleMetrics metrics = TollgateMetrics.find(budget.name());
          String plan = rule.planOf(budget);
          String limit = limitOf(budget) + (plan == null ? "" : ", plan " + plan);
          LeaseCounts leases = TollgateMetrics.leases(budget.name());
          rules.add(new RuleStatus(budget.name(), budget.algorithmName(), limit,
              budget.isShadow(), RuleCounters.read(metrics), RuleCounters.readKeys(metrics),
              leases == null ? 0 : leases.leaseTokens(), LeaseStatusCounters.read(leases)));
        }
      }
      if (holder.outbound() instanceof OutboundGate) {
        for (OutboundRuleState rule : ((OutboundGate) holder.outbound()).states()) {
          outbound.add(outboundStatus(rule));
        }
      }
      RedisBackend redis = holder.factory().redisBackend();
      if (redis != null) {
        backend = redisStatus(redis, holder.factory().instanceRegistry(), problems);
      }
    }
    return new StatusSnapshot(Version.current(), ProcessHandle.current().pid(), System.nanoTime(),
        System.currentTimeMillis(), agentStartedAtMillis, file, problems, rules, outbound, backend);
  }

  /** An outbound rule with its counters and the partner's waits holding its keys. */
  static OutboundStatus outboundStatus(OutboundRuleState rule) {
    List<OutboundStatus.Hold> holds = new ArrayList<>();
    for (PartnerHold hold : rule.holds) {
      holds.add(new OutboundStatus.Hold(hold.key, hold.untilMillis, hold.answer, hold.learntHere));
    }
    return new OutboundStatus(rule.name, rule.algorithm, rule.limit, rule.shadow, rule.onLimit,
        OutboundCounters.read(rule.metrics), holds);
  }

  private static BackendStatus redisStatus(
      RedisBackend redis, InstanceRegistry instances, List<String> problems) {
    String address = redis.settings().address();
    boolean connected = redis.isConnected();
    String circuit = redis.breaker().state().name();
    boolean failing = redis.decisionsFailing();
    if (!connected && redis.reconnecting()) {
      int resetPartway = redis.attemptsResetPartway();
      problems.add("redis at " + address + " is reconnecting after a drop"
          + (resetPartway == 0 ? "" : ", " + resetPartway + " attempt(s) reset partway, redis last"
              + " answered " + redis.millisSinceRedisAnswered() + " ms ago")
          + ": decisions wait for it up to max-wait, then each rule on it decides by its local"
          + " share; by its on-failure policy once an attempt is refused or times out, or redis"
          + " has not answered for the connect timeout");
    } else if (!connected) {
      problems.add("redis at " + address + " is not connected: each rule on it decides by its"
          + " on-failure policy");
    } else if (!circuit.equals("CLOSED")) {
      problems.add("redis at " + address + ": the circuit breaker is " + circuit.toLowerCase()
          + ": each rule on it decides by its on-failure policy");
    } else if (failing) {
      problems.add("redis at " + address + " cannot decide now: each rule on it decides by its"
          + " on-failure policy");
    }
    Map<String, Long> counters = new LinkedHashMap<>();
    counters.put(BackendStatus.NOT_ANSWERED, redis.callsNotAnswered());
    counters.put(BackendStatus.LATE, redis.callsAnsweredLate());
    counters.put(BackendStatus.BATCHED_DECISIONS, redis.batchedDecisions());
    counters.put(BackendStatus.BATCH_CALLS, redis.batchCalls());
    return new BackendStatus(BackendStatus.REDIS, address, connected, circuit,
        redis.breaker().timesOpened(), failing,
        instances == null ? 1 : instances.liveInstances(), counters);
  }

  /** A budget's limit as people write it: {@code 100/1m}, {@code 20 in flight}. */
  static String limitOf(Rule budget) {
    QuotaPolicy policy = budget.policy();
    if (policy == null) {
      return "-";
    }
    String algorithm = budget.algorithmName();
    if (algorithm.equals(AlgorithmKind.CONCURRENCY.yamlName())) {
      return policy.quota() + " in flight";
    }
    if (algorithm.equals(AlgorithmKind.ADAPTIVE_CONCURRENCY.yamlName())) {
      return "up to " + policy.quota() + " in flight";
    }
    return policy.quota() + "/" + Durations.format(policy.windowSeconds() * 1_000_000_000L);
  }
}
