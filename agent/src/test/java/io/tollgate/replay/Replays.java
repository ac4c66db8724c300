package io.tollgate.replay;

import io.tollgate.config.RulesConfig;
import io.tollgate.config.RulesFileParser;
import io.tollgate.replay.log.AccessLogReader;
import io.tollgate.replay.log.LoggedRequest;
import io.tollgate.replay.log.UnparsedLines;
import java.util.Iterator;
import java.util.List;

/** Replays made in tests: rules from YAML lines, requests from a list. */
final class Replays {

  private Replays() {}

  static RulesConfig rules(String... yamlLines) throws Exception {
    return RulesFileParser.parse(String.join("\n", yamlLines) + "\n", "rules.yaml");
  }

  static ReplayReport replay(RulesConfig rules, List<LoggedRequest> requests) throws Exception {
    Replay replay = Replay.of(rules, 1_000_000);
    for (LoggedRequest r : requests) {
      replay.replay(r);
    }
    return replay.report(10, new UnparsedLines());
  }

  static RuleReport rule(ReplayReport report, String name) {
    for (RuleReport r : report.rules) {
      if (r.rule.name().equals(name)) {
        return r;
      }
    }
    throw new AssertionError("no rule " + name);
  }

  /** A reader over a list, standing in for the access-log readers. */
  static AccessLogReader reader(List<LoggedRequest> requests) {
    Iterator<LoggedRequest> it = requests.iterator();
    UnparsedLines problems = new UnparsedLines();
    return new AccessLogReader() {
      long read;

      @Override
      public LoggedRequest next() {
        if (!it.hasNext()) {
          return null;
        }
        read++;
        return it.next();
      }

      @Override
      public UnparsedLines problems() {
        return problems;
      }

      @Override
      public long bytesRead() {
        return read;
      }

      @Override
      public long totalBytes() {
        return requests.size();
      }

      @Override
      public void close() {}
    };
  }
}
