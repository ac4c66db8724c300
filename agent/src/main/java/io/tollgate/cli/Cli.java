package io.tollgate.cli;

import io.tollgate.agent.AgentArguments;
import io.tollgate.agent.AttachReport;
import io.tollgate.config.ConfigException;
import io.tollgate.config.ConfigProblem;
import io.tollgate.config.OutboundRuleConfig;
import io.tollgate.config.RuleConfig;
import io.tollgate.config.RulesConfig;
import io.tollgate.config.RulesFileParser;
import io.tollgate.config.RulesFileReader;
import io.tollgate.diagnostics.Version;
import io.tollgate.limiters.Clock;
import io.tollgate.outbound.OutboundRules;
import io.tollgate.replay.ReplayCommand;
import io.tollgate.rules.RuleSetFactory;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import net.bytebuddy.agent.ByteBuddyAgent;

/**
 * {@code java -jar tollgate-agent.jar COMMAND}: attach to a running JVM, show a running agent's
 * status, validate a rules file, replay access logs through rules, print help or the version.
 *
 * <p>Exit codes: 0 success; 1 a rules file is invalid or the attach failed (for {@code status}:
 * the agent reports a problem); 2 the command line itself is wrong (unknown command, missing
 * argument, unreadable file); 3 ({@code status}) no Tollgate agent in that JVM.
 */
public final class Cli {

  static final int OK = 0;
  static final int INVALID = 1;
  static final int USAGE = 2;

  private Cli() {}

  public static int run(String[] args, File agentJar) {
    return run(args, agentJar, System.out, System.err);
  }

  static int run(String[] args, File agentJar, PrintStream out, PrintStream err) {
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
      out.print(usage());
      return args.length == 0 ? USAGE : OK;
    }
    switch (args[0]) {
      case "--version":
      case "version":
        out.println("Tollgate " + Version.current());
        return OK;
      case "validate":
        return validate(Arrays.copyOfRange(args, 1, args.length), out, err);
      case "attach":
        return attach(Arrays.copyOfRange(args, 1, args.length), agentJar, out, err);
      case "status":
        return StatusCommand.run(Arrays.copyOfRange(args, 1, args.length), agentJar, out, err);
      case "replay":
        return ReplayCommand.run(Arrays.copyOfRange(args, 1, args.length), out, err);
      default:
        err.println("tollgate: unknown command '" + args[0] + "'");
        err.print(usage());
        return USAGE;
    }
  }

  static String usage() {
    return String.join(
        System.lineSeparator(),
        "Tollgate " + Version.current() + ": rate limiting for Java web apps, with no code change.",
        "",
        "Usage:",
        "  java -javaagent:tollgate-agent.jar=config=rules.yaml -jar app.jar   start an app with limits",
        "  java -jar tollgate-agent.jar attach PID config=rules.yaml          add limits to a running JVM",
        "  java -jar tollgate-agent.jar status PID [--json] [--watch [SECONDS]] see a running agent",
        "  java -jar tollgate-agent.jar validate rules.yaml [more.yaml...]     check rules files",
        "  java -jar tollgate-agent.jar replay rules.yaml access.log...        try rules on past traffic",
        "  java -jar tollgate-agent.jar --version",
        "  java -jar tollgate-agent.jar --help",
        "",
        "attach options (key=value): config=PATH (or just PATH), debug=true, log-file=PATH,",
        "  metrics-port=N, metrics-host=ADDRESS, entry-point-warning-after=DURATION,",
        "  custom-log-manager=true, refusal-log=N|off, fail-on-error=true (attach only if the",
        "  rules file validates). The same options follow -javaagent:tollgate-agent.jar=.",
        "Attaching again to the same JVM applies the config, debug and refusal-log it names.",
        "attach waits for the agent's answer: exit 0 when the rules file is in force, 1 (with",
        "the JVM's errors, file and line) when it is not or the attach failed, 2 on a usage error.",
        "validate exits 0 when every file is valid, 1 when one is not (one line per problem,",
        "with its line number), 2 on a usage error.",
        StatusCommand.USAGE_TEXT,
        ReplayCommand.USAGE_TEXT,
        "");
  }

  private static int validate(String[] files, PrintStream out, PrintStream err) {
    if (files.length == 0) {
      err.println("tollgate validate: name at least one rules file");
      return USAGE;
    }
    long totalBytes = 0;
    for (String file : files) {
      totalBytes += new File(file).length(); // 0 for what does not exist: refused below
    }
    Thread jit = QuickCompiles.forFilesOf(totalBytes);
    ValidateWarmUp.forFilesOf(totalBytes);
    int result = validateEach(files, out, err);
    if (jit != null) {
      try {
        jit.join(); // long done by now; what it loads is loaded whatever the file's length
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return result;
  }

  private static int validateEach(String[] files, PrintStream out, PrintStream err) {
    int result = OK;
    for (String file : files) {
      try {
        // Refused as the agent refuses it: anything but a regular file, or a file too large.
        RulesFileReader.read(new File(file));
      } catch (RulesFileReader.UnreadableException e) {
        err.println(e.getMessage());
        result = Math.max(result, USAGE);
        continue;
      }
      try {
        RulesConfig config = RulesFileParser.parse(Paths.get(file));
        // What the agent runs on a rules file, short of connecting to Redis: a file valid here
        // is one the agent applies.
        RuleSetFactory.forOneBuild(Clock.system()).build(config, null);
        OutboundRules.check(config);
        int rules = config.rules().size();
        int outbound = config.outbound().size();
        out.println(file + ": valid, " + rules + " rule" + (rules == 1 ? "" : "s")
            + (outbound == 0 ? "" : ", " + outbound + " outbound rule" + (outbound == 1 ? "" : "s")));
        for (OutboundRuleConfig rule : config.outbound()) {
          out.println(file + ": line " + rule.line() + ": outbound rule " + rule);
        }
        for (RuleConfig rule : config.rules()) {
          if (rule.keyNormalize() == null && rule.keyNormalizeOrDefault()) {
            // a default that changes which requests share a budget: said, not left implicit
            out.println(file + ": line " + rule.lineOf("key") + ": rule '" + rule.name()
                + "': key values are normalised (case, surrounding spaces, invisible characters,"
                + " Unicode compatibility forms), the default for login-style rules;"
                + " key-normalize: false counts them as sent");
          }
        }
        RuleSetFactory.warnAboutSettings(config);
      } catch (ConfigException e) {
        for (ConfigProblem problem : e.problems()) {
          err.println(problem);
        }
        result = Math.max(result, INVALID);
      } catch (RuntimeException e) {
        // The parser let through what the agent cannot build: a bug, reported as the agent would.
        err.println(file + ": the agent could not apply this file: " + e);
        result = Math.max(result, INVALID);
      }
    }
    return result;
  }

  private static int attach(String[] args, File agentJar, PrintStream out, PrintStream err) {
    if (args.length == 0) {
      err.println("tollgate attach: name the process id of the JVM (see `jps -l`)");
      return USAGE;
    }
    String pid = args[0];
    if (!pid.matches("[0-9]+")) {
      err.println("tollgate attach: '" + pid + "' is not a process id");
      return USAGE;
    }
    if (!ProcessHandle.of(Long.parseLong(pid)).isPresent()) {
      err.println("tollgate attach: no process with id " + pid + " (see `jps -l`)");
      return INVALID;
    }
    // The agent's own parser and checks: what this accepts, the agent accepts the same way.
    AgentArguments arguments =
        AgentArguments.parse(Arrays.asList(Arrays.copyOfRange(args, 1, args.length)));
    if (!arguments.problems().isEmpty()) {
      for (String problem : arguments.problems()) {
        err.println("tollgate attach: " + problem);
      }
      return USAGE;
    }
    List<String> options = new ArrayList<>();
    for (Map.Entry<String, String> option : arguments.givenOptions().entrySet()) {
      String key = option.getKey();
      String value = option.getValue();
      if (key.equals(AgentArguments.ATTACH_REPORT) || key.equals(AgentArguments.STATUS_REPORT)) {
        continue; // this command's own, added below; the status command's
      }
      if (key.equals("config") || key.equals("log-file")) {
        // The target JVM has its own working directory: send an absolute path.
        value = new File(value).getAbsolutePath();
        if (key.equals("config")) {
          try {
            RulesFileReader.read(new File(value)); // refused as the agent would refuse it
          } catch (RulesFileReader.UnreadableException e) {
            err.println("tollgate attach: " + e.getMessage());
            return USAGE;
          }
        }
      }
      options.add(key + "=" + value);
    }
    if (arguments.isTrue("fail-on-error")) {
      // A running JVM is never stopped: refuse to attach rules that would not be put in force.
      String config = arguments.get("config");
      if (config == null) {
        err.println("tollgate attach: fail-on-error=true needs config=PATH, a rules file to put"
            + " in force");
        return USAGE;
      }
      if (validate(new String[] {new File(config).getAbsolutePath()}, out, err) != OK) {
        err.println("tollgate attach: fail-on-error=true: the rules file does not validate;"
            + " not attached");
        return INVALID;
      }
    }
    Path reportFile;
    try {
      // Created here, so that it is ours (readable by this user only) and the target writes into it
      reportFile = Files.createTempFile("tollgate-attach-", ".report");
    } catch (IOException e) {
      err.println("tollgate attach: cannot create the file for the agent's answer: " + e);
      return INVALID;
    }
    options.add(AgentArguments.ATTACH_REPORT + "=" + reportFile.toAbsolutePath());
    try {
      // Returns once the agent's agentmain has: the report is written by then
      ByteBuddyAgent.attach(agentJar, pid, String.join(",", options));
      return reportOutcome(pid, reportFile, out, err);
    } catch (RuntimeException e) {
      err.println("tollgate attach: could not attach to JVM " + pid + ": " + e.getMessage());
      err.println("  Attach as the same user as the target JVM, to a JVM (not a JRE without"
          + " jdk.attach), and check it was not started with -XX:+DisableAttachMechanism.");
      return INVALID;
    } finally {
      try {
        Files.deleteIfExists(reportFile);
      } catch (IOException ignored) {
        // A file in the temporary directory; nothing depends on its going.
      }
    }
  }

  /**
   * Prints what the agent in JVM {@code pid} answered: its errors (a rules file's, with path and
   * line), then one line; 1 when the rules file it was given is not in force.
   */
  private static int reportOutcome(String pid, Path reportFile, PrintStream out, PrintStream err) {
    AttachReport report;
    try {
      report = AttachReport.read(reportFile);
    } catch (IOException e) {
      report = null;
    }
    if (report == null) {
      out.println("attached Tollgate to JVM " + pid + "; it gave no answer (an older agent"
          + " running there?): see that JVM's standard error for the outcome");
      return OK;
    }
    for (String error : report.errors()) {
      err.println("JVM " + pid + ": ERROR " + error);
    }
    if (!report.rulesInForce()) {
      err.println("tollgate attach: attached to JVM " + pid + ", but " + report.summary());
      return INVALID;
    }
    out.println("attached Tollgate to JVM " + pid + ": " + report.summary()
        + "; it logs to that JVM's standard error");
    return OK;
  }
}
