package io.tollgate.benchmarks;

import io.tollgate.engine.RulesHolder;
import io.tollgate.agent.FrameworkModules;
import io.tollgate.bootstrap.RequestGate;
import io.tollgate.engine.TollgateGate;
import io.tollgate.instrumentation.EntryPointDispatch;
import io.tollgate.limiters.Clock;
import io.tollgate.rules.RuleSetFactory;

/**
 * The end-to-end benchmark's rules files in the engine, as the agent would load them, for the
 * benchmarks that call the engine on a framework's own objects.
 */
final class EndToEndRules {

  private EndToEndRules() {}

  /**
   * The engine behind the bridge, as the agent installs it, with {@code benchmarks/e2e-rules.yaml} ({@code "rule"}: one rule on GET /hello
   * that never refuses) or {@code benchmarks/e2e-rules-nomatch.yaml} ({@code "nomatch"}).
   */
  static RequestGate engine(String rules) {
    RulesHolder holder = new RulesHolder(new RuleSetFactory(Clock.system()));
    holder.useFile(
        rules.equals("rule") ? "benchmarks/e2e-rules.yaml" : "benchmarks/e2e-rules-nomatch.yaml");
    if (holder.current().isEmpty()) {
      throw new IllegalStateException("no rules loaded: run from the repository root");
    }
    return new EntryPointDispatch(FrameworkModules.all(), new TollgateGate(holder));
  }
}
