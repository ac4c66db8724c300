package io.tollgate.replay;

import io.tollgate.config.ConfigException;
import io.tollgate.config.ConfigProblem;
import io.tollgate.config.RulesConfig;
import io.tollgate.config.RulesFileParser;
import io.tollgate.config.RulesFileReader;
import io.tollgate.replay.log.AccessLogReader;
import io.tollgate.replay.log.LoggedRequest;
import io.tollgate.replay.log.ProgressBar;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;

/**
 * {@code java -jar tollgate-agent.jar replay RULES.yaml LOG...}: what the rules would have done to
 * the logged traffic, printed per rule, and with {@code --report} as an HTML page.
 *
 * <p>Exit codes: 0 replayed; 1 the rules file is not one the agent would apply; 2 the command
 * line is wrong, or a file cannot be read (or the report written).
 */
public final class ReplayCommand {

  static final int OK = 0;
  static final int INVALID = 1;
  static final int USAGE = 2;

  /** The lines {@code --help} shows for this command. */
  public static final String USAGE_TEXT = String.join(System.lineSeparator(),
      "replay RULES.yaml LOG... replays access logs through the rules, as the agent would have",
      "  decided them (local semantics; the log's times, client addresses and headers), and",
      "  prints per rule: matched, would refuse, distinct keys, keys refused, top refused keys,",
      "  the busiest minute and the limits that would have refused no one. Options:",
      "  --format combined|common|tomcat|json  (default: recognised from each file's lines)",
      "  --report FILE.html   also write a self-contained HTML report with charts",
      "  --top N              refused keys listed per rule (default " + ReplayArguments.DEFAULT_TOP + ")",
      "  --max-keys N         keys tracked exactly per rule (default "
          + ReplayArguments.DEFAULT_MAX_KEYS + "; beyond, distinct keys are estimated)",
      "  --field ROLE=FIELD   the field of a JSON log that holds a role: time, client, method,",
      "                       path, query, request, status, user, host, user-agent, referer,",
      "                       x-forwarded-for, or header.NAME for a request header",
      "  --no-progress        no progress bar (there is none unless on a terminal)",
      "  Route rules are not replayed (a log has no route templates); concurrency rules see",
      "  each request as instantaneous.",
      "  Logs may be gzip files, or - for standard input; several are merged in time order.",
      "  Exits 0 when replayed, 1 when the rules file is invalid, 2 on a usage error or an",
      "  unreadable log.");

  private final LogOpener opener;

  ReplayCommand(LogOpener opener) {
    this.opener = opener;
  }

  /** Runs the command with the access-log readers of {@code io.tollgate.replay.log}. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return new ReplayCommand(AccessLogOpener.INSTANCE).execute(args, out, err);
  }

  int execute(String[] args, PrintStream out, PrintStream err) {
    ReplayArguments arguments = ReplayArguments.parse(args);
    if (arguments.problem != null) {
      err.println("tollgate replay: " + arguments.problem);
      err.println("usage: java -jar tollgate-agent.jar replay RULES.yaml LOG... [--format"
          + " combined|common|tomcat|json] [--report FILE.html] [--top N] [--field ROLE=FIELD]");
      return USAGE;
    }
    if (arguments.report != null) {
      java.nio.file.Path folder = arguments.report.toAbsolutePath().getParent();
      if (folder == null || !Files.isDirectory(folder)) {
        err.println("tollgate replay: cannot write the report " + arguments.report + ": no folder "
            + folder);
        return USAGE;
      }
    }
    RulesConfig config;
    Replay replay;
    try {
      // refused as the agent refuses it: anything but a regular file, or a file too large
      RulesFileReader.read(arguments.rules.toFile());
    } catch (RulesFileReader.UnreadableException e) {
      err.println("tollgate replay: " + e.getMessage());
      return USAGE;
    }
    try {
      config = RulesFileParser.parse(arguments.rules);
      replay = Replay.of(config, arguments.maxKeys);
    } catch (ConfigException e) {
      for (ConfigProblem problem : e.problems()) {
        err.println(problem);
      }
      return INVALID;
    } catch (RuntimeException e) {
      // the parser let through what the agent cannot build: reported as validate reports it
      err.println(arguments.rules + ": the agent could not apply this file: " + e);
      return INVALID;
    }
    ReplayReport report;
    try (AccessLogReader logs = opener.open(arguments.logs, arguments.format, arguments.jsonFields())) {
      ProgressBar progress = arguments.progress ? ProgressBar.start(logs, err) : null;
      long n = 0;
      for (LoggedRequest request; (request = logs.next()) != null; ) {
        replay.replay(request);
        if (progress != null) {
          progress.update(++n);
        }
      }
      if (progress != null) {
        progress.finish();
      }
      report = replay.report(arguments.top, logs.problems(), AccessLogOpener.notes(logs));
    } catch (IOException | IllegalArgumentException e) {
      err.println("tollgate replay: cannot read the logs: " + e.getMessage());
      return USAGE;
    }
    out.print(TextReport.of(report));
    if (arguments.report != null) {
      try {
        Files.write(arguments.report, HtmlReport.of(report).getBytes(StandardCharsets.UTF_8));
        out.println();
        out.println("Report written to " + arguments.report);
      } catch (IOException e) {
        err.println("tollgate replay: cannot write the report " + arguments.report + ": " + e);
        return USAGE;
      }
    }
    return OK;
  }
}
