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
   * that never refuses), {@code benchmarks/e2e-rules-refused.yaml} ({@code "refused"}: that rule at one
   * request an hour, so that every request after the first is refused), {@code
   * benchmarks/e2e-rules-nomatch.yaml} ({@code "nomatch"}), or
   * {@code "rules-N"}: N rules, the last of them that rule on GET /hello and the others one per
   * tenant on {@code /tenants/tI/**}, as a file of per-tenant limits has them.
   */
  static RequestGate engine(String rules) {
    RulesHolder holder = new RulesHolder(new RuleSetFactory(Clock.system()));
    holder.useFile(fileOf(rules));
    if (holder.current().isEmpty()) {
      throw new IllegalStateException("no rules loaded: run from the repository root");
    }
    return new EntryPointDispatch(FrameworkModules.all(), new TollgateGate(holder));
  }

  private static String fileOf(String rules) {
    if (rules.equals("rule")) {
      return "benchmarks/e2e-rules.yaml";
    }
    if (rules.equals("rule-proxy")) {
      return "benchmarks/e2e-rules-proxy.yaml";
    }
    if (rules.equals("refused")) {
      return "benchmarks/e2e-rules-refused.yaml";
    }
    if (rules.equals("nomatch")) {
      return "benchmarks/e2e-rules-nomatch.yaml";
    }
    if (!rules.startsWith("rules-")) {
      throw new IllegalArgumentException(
          "rules: rule, rule-proxy, refused, nomatch or rules-N, got " + rules);
    }
    int count = Integer.parseInt(rules.substring("rules-".length()));
    StringBuilder yaml = new StringBuilder("rules:\n");
    for (int i = 1; i < count; i++) {
      yaml.append("  - name: tenant-").append(i).append("\n    match:\n      path: /tenants/t")
          .append(i).append("/**\n    key: ip\n    limit: 100\n    period: 1m\n");
    }
    yaml.append("  - name: hello-never-refuses\n    match:\n      path: /hello\n"
        + "      methods: [GET]\n    key: ip\n    limit: 1000000000\n    period: 1s\n");
    try {
      java.nio.file.Path file = java.nio.file.Files.createTempFile("tollgate-" + rules, ".yaml");
      file.toFile().deleteOnExit();
      java.nio.file.Files.writeString(file, yaml);
      return file.toString();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
