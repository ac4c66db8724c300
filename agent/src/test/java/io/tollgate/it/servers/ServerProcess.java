package io.tollgate.it.servers;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One running server: its process (often a shell script with the JVM as a child), its console
 * captured line by line, the log files it writes, and how long it took to serve its first request.
 * Closed by the test, which ends the whole process tree.
 */
final class ServerProcess implements AutoCloseable {

  static final String AGENT_TAG = "[tollgate]";
  private static final Pattern AGENT_ERROR =
      Pattern.compile("\\[tollgate\\] ERROR|ERROR +\\[tollgate\\]");

  private final String name;
  private final Process process;
  private final List<Path> logFiles;
  private final List<String> console = new CopyOnWriteArrayList<>();
  private final long startedNanos = System.nanoTime();

  private ServerProcess(String name, Process process, List<Path> logFiles) {
    this.name = name;
    this.process = process;
    this.logFiles = logFiles;
  }

  static ServerProcess start(String name, Server.Launch launch) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(launch.command)
        .directory(launch.workDir.toFile())
        .redirectErrorStream(true);
    // What the test's own environment would leak into the server: agent or JVM options of the
    // build's JVM, an agent configuration. Each server gets exactly the settings it names.
    for (String variable : List.of("JAVA_OPTS", "CATALINA_OPTS", "JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS",
        "TOLLGATE_CONFIG", "JVM_ARGS", "CATALINA_BASE", "CATALINA_HOME", "JETTY_HOME", "JETTY_BASE",
        "WLP_USER_DIR")) {
      builder.environment().remove(variable);
    }
    builder.environment().putAll(launch.environment);
    ServerProcess server = new ServerProcess(name, builder.start(), launch.logFiles);
    server.pumpConsole();
    return server;
  }

  private void pumpConsole() {
    Thread pump = new Thread(() -> {
      try (BufferedReader reader = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = reader.readLine()) != null) {
          console.add(line);
        }
      } catch (IOException ignored) {
        // The process ended.
      }
    }, "console of " + name);
    pump.setDaemon(true);
    pump.start();
  }

  /**
   * Polls {@code GET path} until it answers 200 and returns the time from the process's start; a
   * server answers 404 or 503 while its application is still deploying. Any other answer means the
   * application is there but broken, and fails at once.
   */
  Duration awaitReady(int port, String path, Duration timeout) throws InterruptedException {
    long deadline = startedNanos + timeout.toNanos();
    String last = "no answer";
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(name + " exited with " + process.exitValue()
            + " before serving " + path + "; its log:\n" + log());
      }
      try {
        RawHttp.Response response = RawHttp.get(port, path);
        if (response.status == 200) {
          return Duration.ofNanos(System.nanoTime() - startedNanos);
        }
        if (response.status != 404 && response.status != 503) {
          throw new AssertionError(name + " answers GET " + path + " with " + response
              + "; its log:\n" + log());
        }
        last = response.statusLine;
      } catch (IOException notYet) {
        last = notYet.toString();
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException(name + " did not serve " + path + " within " + timeout
        + " (last: " + last + "); its log:\n" + log());
  }

  /** Waits until the log holds {@code n} of the agent's lines containing {@code text}. */
  void awaitAgentLog(String text, int n, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (agentLines(text).size() >= n) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError(name + ": " + n + " agent log lines containing '" + text
        + "' expected within " + timeout + "; log:\n" + log());
  }

  /**
   * The agent's lines containing {@code text}: on standard error they start with
   * {@code [tollgate]}; where the server logs them (WildFly) they read
   * {@code INFO  [tollgate] (main) ...}.
   */
  List<String> agentLines(String text) {
    return logLines().stream().filter(l -> l.contains(AGENT_TAG) && l.contains(text))
        .collect(Collectors.toList());
  }

  /** An agent line at level ERROR, in either form. */
  static boolean isAgentError(String line) {
    return AGENT_ERROR.matcher(line).find();
  }

  /** The console and every log file, one list of lines. */
  List<String> logLines() {
    List<String> lines = new ArrayList<>(console);
    for (Path file : logFiles) {
      if (Files.isRegularFile(file)) {
        try {
          lines.addAll(Files.readAllLines(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    return lines;
  }

  /** The log's last lines, for failure messages (a broken server logs a stack trace a request). */
  String log() {
    List<String> lines = logLines();
    int from = Math.max(0, lines.size() - 200);
    return (from > 0 ? "[" + from + " earlier lines]\n" : "")
        + String.join("\n", lines.subList(from, lines.size()));
  }

  /**
   * The server's JVM, to attach to: the process itself, or the java process a launch script
   * started (WildFly's standalone.sh runs java as its child).
   */
  long jvmPid() {
    if (isJava(process.toHandle())) {
      return process.pid();
    }
    Optional<ProcessHandle> jvm = process.toHandle().descendants().filter(ServerProcess::isJava)
        .findFirst();
    return jvm.orElseThrow(() -> new IllegalStateException(name + ": no java process under "
        + process.pid())).pid();
  }

  private static boolean isJava(ProcessHandle handle) {
    return handle.info().command().map(c -> c.endsWith("/java")).orElse(false);
  }

  @Override
  public void close() throws InterruptedException {
    // The JVM first (scripts forward signals, but not all of them, and not always), then the rest.
    List<ProcessHandle> tree = process.toHandle().descendants()
        .sorted(Comparator.comparingInt(ServerProcess::depth).reversed())
        .collect(Collectors.toList());
    tree.forEach(ProcessHandle::destroy);
    process.destroy();
    for (ProcessHandle handle : tree) {
      handle.onExit().orTimeout(20, TimeUnit.SECONDS).exceptionally(t -> null).join();
    }
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      Stream.concat(tree.stream(), Stream.of(process.toHandle())).forEach(ProcessHandle::destroyForcibly);
      process.waitFor(10, TimeUnit.SECONDS);
    }
    tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
  }

  /** How deep a process is below the root: children are ended before their parents. */
  private static int depth(ProcessHandle handle) {
    int depth = 0;
    for (Optional<ProcessHandle> p = handle.parent(); p.isPresent(); p = p.get().parent()) {
      depth++;
    }
    return depth;
  }

  /** {@code count} distinct free ports on loopback. */
  static int[] freePorts(int count) throws IOException {
    int[] ports = new int[count];
    List<ServerSocket> held = new ArrayList<>();
    try {
      for (int i = 0; i < count; i++) {
        ServerSocket socket = new ServerSocket(0);
        held.add(socket);
        ports[i] = socket.getLocalPort();
      }
    } finally {
      for (ServerSocket socket : held) {
        socket.close();
      }
    }
    return ports;
  }

  static boolean isFree(int port) {
    try (ServerSocket socket = new ServerSocket(port)) {
      return true;
    } catch (IOException inUse) {
      return false;
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
