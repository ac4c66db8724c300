package io.tollgate.agent;

import io.tollgate.logging.AgentLog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * What an attach did, as the agent in the target JVM tells the {@code attach} command: whether the
 * rules it named are in force, a one-line summary, and the ERRORs the attach logged (a rules file's
 * problems, each with its path and line). The target's standard error is not the operator's
 * terminal: an invalid file once printed {@code attached} and exited 0 while the errors went to
 * the application's log only.
 *
 * <p>A file, not the Attach API's agent properties: {@code agentmain} has returned when the
 * command reads it, and the application's system properties are left alone. The command creates
 * it (empty, readable by its user only), names it in {@link AgentArguments#ATTACH_REPORT}, and
 * deletes it; an agent that never wrote it (an older one already running there) leaves it empty.
 *
 * <p>The file: line 1 {@code in-force} or {@code not-in-force}, line 2 the summary, then the
 * errors, each message's lines as it logged them.
 */
public final class AttachReport {

  private static final String IN_FORCE = "in-force";
  private static final String NOT_IN_FORCE = "not-in-force";
  private static final String ERROR_MARK = "error: ";

  private final boolean rulesInForce;
  private final String summary;
  private final List<String> errors;

  public AttachReport(boolean rulesInForce, String summary, List<String> errors) {
    this.rulesInForce = rulesInForce;
    this.summary = summary;
    this.errors = Collections.unmodifiableList(new ArrayList<>(errors));
  }

  /** Whether the rules the attach named (or, naming none, those already there) are in force. */
  public boolean rulesInForce() {
    return rulesInForce;
  }

  public String summary() {
    return summary;
  }

  /** The ERROR messages the agent logged during the attach, in order. */
  public List<String> errors() {
    return errors;
  }

  /**
   * In the target JVM: writes this report where the attach command asked for it, if it did. A
   * report that cannot be written costs the command its answer, never the application anything.
   */
  void writeIfAsked(AgentArguments arguments) {
    if (!arguments.given(AgentArguments.ATTACH_REPORT)) {
      return;
    }
    List<String> lines = new ArrayList<>();
    lines.add(rulesInForce ? IN_FORCE : NOT_IN_FORCE);
    lines.add(summary.replace('\n', ' ').replace('\r', ' '));
    for (String error : errors) {
      lines.add(ERROR_MARK + error);
    }
    try {
      Files.write(Paths.get(arguments.get(AgentArguments.ATTACH_REPORT)), lines,
          StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      AgentLog.warn("cannot tell the attach command the outcome ("
          + e + "); it is in this log only");
    }
  }

  /**
   * In the attach command: the report the agent wrote into {@code file}, or null when it wrote
   * none.
   */
  public static AttachReport read(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    if (lines.size() < 2 || !Arrays.asList(IN_FORCE, NOT_IN_FORCE).contains(lines.get(0))) {
      return null;
    }
    List<String> errors = new ArrayList<>();
    for (String line : lines.subList(2, lines.size())) {
      if (line.startsWith(ERROR_MARK) || errors.isEmpty()) {
        errors.add(line.startsWith(ERROR_MARK) ? line.substring(ERROR_MARK.length()) : line);
      } else {
        // A message of several lines (a stack trace) stays one error.
        errors.set(errors.size() - 1, errors.get(errors.size() - 1) + "\n" + line);
      }
    }
    return new AttachReport(lines.get(0).equals(IN_FORCE), lines.get(1), errors);
  }
}
