package io.tollgate.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Rules whose {@code skip:} or {@code match:} rests only on request headers: a client writes its
 * own headers, so one forged header ({@code X-Internal: 1}) skips the whole rule, and one left out
 * (or changed) takes a request out of a rule that matches on it. Allowed, since a proxy in front may
 * strip or set such a header, but worth a warning at load and in {@code validate}: nothing in the
 * rules file says whether one does.
 *
 * <p>"Only": a skip with header conditions and no path or host; a match with header conditions and
 * no path, route or host. A skip on {@code /health} for the load balancer's {@code User-Agent} lets
 * a forger skip {@code /health} only, which is fine.
 */
public final class ForgeableConditions {

  private ForgeableConditions() {
  }

  /** One warning per rule and block ({@code skip}, {@code match}) that rests only on headers. */
  public static List<ConfigProblem> warnings(RulesConfig config) {
    List<ConfigProblem> out = new ArrayList<>();
    for (RuleConfig rule : config.rules()) {
      RequestConditions skip = rule.skip();
      if (skip != null && !skip.headers().isEmpty() && skip.paths().isEmpty()
          && skip.hosts().isEmpty()) {
        out.add(new ConfigProblem(config.source(), rule.lineOf("skip.headers"), 1,
            "rule '" + rule.name() + "': skip rests only on " + describe(skip.headers())
                + ", which any client can send: one forged header escapes the whole rule;"
                + " add a path to the skip, or make sure a proxy in front strips or sets the header"));
      }
      if (!rule.headers().isEmpty() && rule.paths().isEmpty() && rule.route() == null
          && rule.hosts().isEmpty()) {
        out.add(new ConfigProblem(config.source(), rule.lineOf("match.headers"), 1,
            "rule '" + rule.name() + "': match rests only on " + describe(rule.headers())
                + ", which any client can leave out or change to escape the rule;"
                + " make sure another rule counts the requests this one does not, or that a proxy"
                + " in front sets the header"));
      }
    }
    return out;
  }

  private static String describe(Map<String, String> headers) {
    List<String> each = new ArrayList<>();
    for (Map.Entry<String, String> h : headers.entrySet()) {
      each.add(h.getKey() + ": " + h.getValue());
    }
    return (each.size() == 1 ? "the header " : "the headers ") + String.join(", ", each);
  }
}
