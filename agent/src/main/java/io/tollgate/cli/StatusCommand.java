package io.tollgate.cli;

import io.tollgate.agent.AgentArguments;
import io.tollgate.diagnostics.status.StatusJson;
import io.tollgate.diagnostics.status.StatusSnapshot;
import io.tollgate.diagnostics.status.StatusText;
import io.tollgate.diagnostics.status.StatusView;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import net.bytebuddy.agent.ByteBuddyAgent;

/**
 * {@code java -jar tollgate-agent.jar status PID [--json] [--watch [SECONDS]]}: a live view of the
 * agent running in JVM {@code PID}: each rule with its algorithm, limit and rates, the top keys,
 * the backend's health, the problems.
 *
 * <p>Through the Attach API, as {@code attach}, and no port: the agent jar is attached with {@code
 * status-report=FILE}, and the agent already running there writes a {@link StatusSnapshot} into
 * FILE, changing nothing. A JVM with no Tollgate agent gets none (the bootstrap tier returns at
 * once). Rates are the difference of two snapshots a second apart (then one per refresh), so the
 * agent keeps totals only.
 */
final class StatusCommand {

  static final int OK = 0;
  /** The agent reports a problem: a rules file not in force, its backend down. */
  static final int PROBLEM = 1;
  static final int USAGE = 2;
  /** No Tollgate agent in that JVM, or it cannot be attached to. */
  static final int NO_AGENT = 3;

  static final String USAGE_TEXT = String.join(System.lineSeparator(),
      "status PID [--json] [--watch [SECONDS]]: the agent running in that JVM, live: each rule's",
      "  algorithm, limit, allowed, refused and would-refuse per second, top keys, the backend's",
      "  health. --watch refreshes it every SECONDS (2) until Ctrl-C; --json prints one JSON",
      "  object (one a line with --watch). Exit 0 all is well, 1 the agent reports a problem",
      "  (backend down, rules file not in force), 2 usage error, 3 no Tollgate agent in that JVM",
      "  (status never installs one) or it cannot be attached to.");

  private static final long FIRST_INTERVAL_MILLIS = 1_000;
  private static final String CLEAR_SCREEN = "\u001b[H\u001b[2J";

  private StatusCommand() {}

  /** Why an answer could not be had: the message and the exit code. */
  private static final class NoAnswer extends Exception {
    final int exitCode;

    NoAnswer(String message, int exitCode) {
      super(message);
      this.exitCode = exitCode;
    }
  }

  static int run(String[] args, File agentJar, PrintStream out, PrintStream err) {
    String pid = null;
    boolean json = false;
    long watchSeconds = 0;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("--json")) {
        json = true;
      } else if (arg.equals("--watch")) {
        watchSeconds = 2;
        if (i + 1 < args.length && args[i + 1].matches("[0-9]{1,5}")) {
          watchSeconds = Long.parseLong(args[++i]);
          if (watchSeconds < 1) {
            err.println("tollgate status: --watch takes a whole number of seconds, 1 or more");
            return USAGE;
          }
        }
      } else if (arg.startsWith("-")) {
        err.println("tollgate status: unknown option '" + arg + "'");
        err.println(USAGE_TEXT);
        return USAGE;
      } else if (pid == null) {
        pid = arg;
      } else {
        err.println("tollgate status: one process id only ('" + pid + "', then '" + arg + "')");
        return USAGE;
      }
    }
    if (pid == null) {
      err.println("tollgate status: name the process id of the JVM (see `jps -l`)");
      err.println(USAGE_TEXT);
      return USAGE;
    }
    if (!pid.matches("[0-9]{1,18}")) {
      err.println("tollgate status: '" + pid + "' is not a process id");
      return USAGE;
    }
    try {
      StatusSnapshot previous = ask(agentJar, pid);
      sleep(FIRST_INTERVAL_MILLIS);
      StatusSnapshot current = ask(agentJar, pid);
      StatusView view = new StatusView(previous, current);
      if (watchSeconds == 0) {
        out.print(json ? StatusJson.render(view) + System.lineSeparator() : StatusText.render(view));
        out.flush();
        return view.hasProblems() ? PROBLEM : OK;
      }
      while (true) { // until Ctrl-C, or the JVM is gone
        if (json) {
          out.println(StatusJson.render(view));
        } else {
          out.print(CLEAR_SCREEN + StatusText.render(view)
              + System.lineSeparator() + "refreshed every " + watchSeconds + " s; Ctrl-C to stop"
              + System.lineSeparator());
        }
        out.flush();
        sleep(TimeUnit.SECONDS.toMillis(watchSeconds));
        previous = current;
        current = ask(agentJar, pid);
        view = new StatusView(previous, current);
      }
    } catch (NoAnswer e) {
      err.println("tollgate status: " + e.getMessage());
      return e.exitCode;
    }
  }

  /**
   * One snapshot of the agent in JVM {@code pid}: attaches with {@code status-report=FILE} and
   * reads what it wrote there.
   */
  static StatusSnapshot ask(File agentJar, String pid) throws NoAnswer {
    if (!ProcessHandle.of(Long.parseLong(pid)).isPresent()) {
      throw new NoAnswer("no process with id " + pid + " (see `jps -l`)", NO_AGENT);
    }
    Path report;
    try {
      // Created here, so that it is ours (readable by this user only) and the target writes into it
      report = Files.createTempFile("tollgate-status-", ".json");
      report.toFile().deleteOnExit(); // Ctrl-C during an attach of --watch: gone all the same
    } catch (IOException e) {
      throw new NoAnswer("cannot create the file for the agent's answer: " + e, NO_AGENT);
    }
    try {
      try {
        // Returns once agentmain has: the snapshot is written by then
        ByteBuddyAgent.attach(agentJar, pid,
            AgentArguments.STATUS_REPORT + "=" + report.toAbsolutePath());
      } catch (RuntimeException e) {
        throw new NoAnswer("could not attach to JVM " + pid + ": " + e.getMessage()
            + System.lineSeparator() + "  Run status as the same user as the target JVM, on a"
            + " JDK (with jdk.attach), and check the JVM was not started with"
            + " -XX:+DisableAttachMechanism.", NO_AGENT);
      }
      String text = new String(Files.readAllBytes(report), StandardCharsets.UTF_8);
      if (text.trim().isEmpty()) {
        throw new NoAnswer("no Tollgate agent answers in JVM " + pid + ": none runs there (status"
            + " does not install one; `attach " + pid + " config=rules.yaml` does), or an older"
            + " one that has no status", NO_AGENT);
      }
      try {
        return StatusSnapshot.fromJson(text);
      } catch (IllegalArgumentException e) {
        throw new NoAnswer("the agent in JVM " + pid + " answered what this command cannot read ("
            + e.getMessage() + ")", NO_AGENT);
      }
    } catch (IOException e) {
      throw new NoAnswer("cannot read the agent's answer: " + e, NO_AGENT);
    } finally {
      try {
        Files.deleteIfExists(report);
      } catch (IOException ignored) {
        // A file in the temporary directory; nothing depends on its going.
      }
    }
  }

  private static void sleep(long millis) throws NoAnswer {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NoAnswer("interrupted", OK);
    }
  }
}
