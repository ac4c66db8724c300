package io.tollgate.replay;

import io.tollgate.replay.log.UnparsedLines;
import java.util.Collections;
import java.util.List;

/** What a replay found: the totals, each rule's figures, and what the reader could not read. */
public final class ReplayReport {

  final String rulesSource;
  /** Whether the rules file said {@code backend: redis} (replayed as local all the same). */
  final boolean fileSaidRedis;
  final long requests;
  /** Requests an enforcing rule would have refused. */
  final long refusedRequests;
  /** Requests a shadow rule would have refused. */
  final long shadowRefusedRequests;
  final long firstMillis;
  final long lastMillis;
  final long stepsBack;
  final long longestStepBackMillis;
  final UnparsedLines unparsed;
  /** What the readers said of the logs: each file's format, requests placed late. */
  final List<String> readerNotes;
  final List<RuleReport> rules;

  ReplayReport(
      String rulesSource,
      boolean fileSaidRedis,
      long requests,
      long refusedRequests,
      long shadowRefusedRequests,
      long firstMillis,
      long lastMillis,
      long stepsBack,
      long longestStepBackMillis,
      UnparsedLines unparsed,
      List<String> readerNotes,
      List<RuleReport> rules) {
    this.readerNotes = Collections.unmodifiableList(readerNotes);
    this.rulesSource = rulesSource;
    this.fileSaidRedis = fileSaidRedis;
    this.requests = requests;
    this.refusedRequests = refusedRequests;
    this.shadowRefusedRequests = shadowRefusedRequests;
    this.firstMillis = firstMillis;
    this.lastMillis = lastMillis;
    this.stepsBack = stepsBack;
    this.longestStepBackMillis = longestStepBackMillis;
    this.unparsed = unparsed;
    this.rules = Collections.unmodifiableList(rules);
  }

  public long requests() {
    return requests;
  }

  public long refusedRequests() {
    return refusedRequests;
  }

  /** The sentence every report starts its notes with: how the rules were replayed. */
  String semanticsNote() {
    return fileSaidRedis
        ? "Local semantics: the rules file says backend: redis; replayed as backend: local, one"
            + " process counting every request of the log (what a shared Redis store gives a"
            + " fleet), with no connection and no on-failure."
        : "Local semantics: backend: local, one process counting every request of the log.";
  }
}
