package io.tollgate.it.servers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.it.TestPaths;
import io.tollgate.testing.Progress;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent on real servers, installed as operators install it (see each {@link Server}): the
 * smoke matrix of issue 18. Each server runs twice: without the agent (every request passes),
 * then {@code attach} into that running server; and with the agent from the start (a path rule and
 * a route rule refuse exactly at their limits, the refusal is complete, a changed rules file
 * applies). Neither run's log may hold a linkage error or an agent ERROR.
 *
 * <p>The servers run in parallel ({@code -Dtollgate.servers.parallel}, default one per core, at most
 * 4: starting a server is CPU-bound), each through its checks in order; the results are reported
 * per server and check, with the start times.
 * {@code -Dtollgate.servers=Tomcat,Jetty} runs only the servers whose names contain one of these.
 */
class ServerSmokeMatrixIT {

  private static final Duration START_TIMEOUT = Duration.ofMinutes(5);
  private static final Duration AGENT_TIMEOUT = Duration.ofSeconds(90);
  private static final int PATH_LIMIT = 3;
  private static final int ROUTE_LIMIT = 2;
  private static final int RELOADED_PATH_LIMIT = 5;
  private static final String ROUTE_CHECK = "a route rule (JAX-RS) refuses exactly at its limit";

  /** What a server's log must never hold. */
  private static final List<String> FORBIDDEN = List.of(
      "NoClassDefFoundError", "LinkageError", "VerifyError", "IncompatibleClassChangeError",
      // the agent's lines at their own level, not as the captured standard error (WildFly)
      "ERROR [stderr] [tollgate]");

  /** The servers, at the versions agent/pom.xml unpacks into target/servers/. */
  static List<Server> servers() {
    return List.of(
        new OpenLiberty("25.0.0.11"),
        new WildFly("39.0.1.Final"),
        new PayaraMicro("7.2025.1"),
        new Tomcat("9.0.98", "war-javax"),
        new Tomcat("10.1.49", "war-jakarta"),
        new Tomcat("11.0.14", "war-jakarta"),
        new Jetty("12.1.4", "ee8", "war-javax"),
        new Jetty("12.1.4", "ee10", "war-jakarta"));
  }

  @TempDir Path dir;

  @TestFactory
  List<DynamicContainer> everyServerServesAndTheAgentLimitsOnIt() throws Exception {
    List<Server> selected = selected();
    int parallel = Integer.getInteger("tollgate.servers.parallel",
        Math.min(4, Runtime.getRuntime().availableProcessors()));
    ExecutorService pool = Executors.newFixedThreadPool(parallel);
    long started = System.nanoTime();
    List<Future<ServerRun>> futures = new ArrayList<>();
    List<Server> notRun = new ArrayList<>();
    for (Server server : selected) {
      if (!server.jdk().installed()) {
        // Payara Micro 7 needs Java 21+: on a machine with JDK 17 only it cannot run
        notRun.add(server);
        Progress.say("smoke matrix", server.name() + " not run: " + server.jdk().missing());
        continue;
      }
      Path serverDir = Files.createDirectories(dir.resolve(slug(server.name())));
      futures.add(pool.submit(() -> {
        ServerRun run = new ServerRun(server, serverDir).run();
        Progress.say("smoke matrix", server.name() + " done: " + run.tally());
        return run;
      }));
    }
    List<ServerRun> runs = new ArrayList<>();
    for (Future<ServerRun> future : futures) {
      runs.add(future.get());
    }
    pool.shutdown();
    pool.awaitTermination(1, TimeUnit.MINUTES);
    Duration wall = Duration.ofNanos(System.nanoTime() - started);
    report(runs, notRun, wall, parallel);

    List<DynamicContainer> containers = new ArrayList<>();
    for (ServerRun run : runs) {
      // A check that does not apply to this server (a route rule where there is no JAX-RS) is
      // no test here, rather than a skipped one; the summary names it "n/a".
      List<DynamicTest> tests = run.checks.stream()
          .filter(check -> check.notApplicable == null)
          .map(check -> DynamicTest.dynamicTest(check.name, check::rethrow))
          .collect(Collectors.toList());
      containers.add(DynamicContainer.dynamicContainer(run.server.name(), tests));
    }
    for (Server server : notRun) {
      containers.add(DynamicContainer.dynamicContainer(server.name(), List.of(
          DynamicTest.dynamicTest("runs on " + server.jdk(), () -> server.jdk().require()))));
    }
    return containers;
  }

  private static List<Server> selected() {
    String filter = System.getProperty("tollgate.servers", "").trim();
    if (filter.isEmpty()) {
      return servers();
    }
    List<String> wanted = Arrays.asList(filter.toLowerCase(Locale.ROOT).split(","));
    return servers().stream()
        .filter(s -> wanted.stream().anyMatch(w -> s.name().toLowerCase(Locale.ROOT).contains(w.trim())))
        .collect(Collectors.toList());
  }

  /** The figures, in the test output and in target/servers/smoke-matrix.txt. */
  private static void report(List<ServerRun> runs, List<Server> notRun, Duration wall,
      int parallel) throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add(String.format("smoke matrix: %d servers, %d at a time, %.0f s in all",
        runs.size(), parallel, wall.toMillis() / 1000.0));
    for (ServerRun run : runs) {
      lines.add(String.format("%-24s start without the agent %s, with it %s; %s", run.server.name(),
          seconds(run.startWithout), seconds(run.startWith), run.summary()));
    }
    for (Server server : notRun) {
      lines.add(String.format("%-24s not run: %s", server.name(), server.jdk().missing()));
    }
    String text = String.join("\n", lines) + "\n";
    System.out.print(text);
    Path out = Path.of(System.getProperty("tollgate.servers.dir", "target/servers"));
    Files.createDirectories(out);
    Files.write(out.resolve("smoke-matrix.txt"), text.getBytes(StandardCharsets.UTF_8));
  }

  private static String seconds(Duration d) {
    return d == null ? "-" : String.format("%.1f s", d.toMillis() / 1000.0);
  }

  private static String slug(String name) {
    return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
  }

  /** One check's outcome: passed, failed (its error), or not applicable on this server. */
  static final class Check {
    final String name;
    Throwable failure;
    String notApplicable;

    Check(String name) {
      this.name = name;
    }

    /** Passes, or fails with what went wrong. */
    void rethrow() throws Throwable {
      if (failure != null) {
        throw failure;
      }
    }

    String status() {
      return notApplicable != null ? "n/a" : failure == null ? "pass" : "FAIL";
    }
  }

  /** A step of a run; a failed step fails its check, and the run goes on where it can. */
  interface Step {
    void run() throws Throwable;
  }

  /** One server through both runs. */
  static final class ServerRun {
    final Server server;
    final Path dir;
    final List<Check> checks = new ArrayList<>();
    Duration startWithout;
    Duration startWith;
    private final List<String> logProblems = new ArrayList<>();

    ServerRun(Server server, Path dir) {
      this.server = server;
      this.dir = dir;
    }

    /** "9 pass, 1 n/a": the checks by outcome, for a progress line (the table has them all). */
    String tally() {
      return checks.stream()
          .collect(Collectors.groupingBy(Check::status, TreeMap::new,
              Collectors.counting()))
          .entrySet().stream()
          .map(e -> e.getValue() + " " + e.getKey())
          .collect(Collectors.joining(", "));
    }

    String summary() {
      return checks.stream()
          .map(c -> c.name + ": " + c.status())
          .collect(Collectors.joining(", "));
    }

    private Check check(String name, Step step) {
      Check check = new Check(name);
      checks.add(check);
      try {
        step.run();
      } catch (Throwable t) {
        check.failure = t;
      }
      return check;
    }

    private String ctx() {
      return server.contextPath();
    }

    ServerRun run() throws IOException {
      Path rules = dir.resolve("rules.yaml");
      writeRules(rules, PATH_LIMIT);
      String agent = "-javaagent:" + TestPaths.agentJar().getAbsolutePath() + "=config=" + rules;

      // Run 1: no agent; then attach into it.
      Started plain = start("plain", null);
      try (ServerProcess process = plain.process) {
        boolean up = check("starts without the agent", () -> {
          startWithout = plain.time();
        }).failure == null;
        check("without the agent every request passes", () -> {
          requireUp(up);
          everyRequestPasses();
        });
        check("attach into the running server applies the rules", () -> {
          requireUp(up);
          attach(process, rules);
          assertStatuses(ctx() + "/hello", PATH_LIMIT, 2, "after attach");
        });
        scanLog(process, "without the agent, then attached");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }

      // Run 2: the agent from the start, as the operator's line puts it.
      writeRules(rules, PATH_LIMIT);
      Started withAgent = start("agent", agent);
      try (ServerProcess process = withAgent.process) {
        boolean up = check("starts with the agent", () -> {
          startWith = withAgent.time();
        }).failure == null;
        RawHttp.Response[] refusal = new RawHttp.Response[1];
        check("a path rule refuses exactly at its limit", () -> {
          requireUp(up);
          assertStatuses(ctx() + "/hello", PATH_LIMIT, 0, "path rule");
          refusal[0] = RawHttp.get(server.port(), ctx() + "/hello");
          assertEquals(429, refusal[0].status, "request " + (PATH_LIMIT + 1) + ": " + refusal[0]);
        });
        check("the refusal is complete", () -> {
          if (refusal[0] == null || refusal[0].status != 429) {
            throw new AssertionError("no refusal to look at");
          }
          assertCompleteRefusal(refusal[0]);
        });
        Check route = check(ROUTE_CHECK, () -> {
          requireUp(up);
          if (!server.hasJaxRs()) {
            return;
          }
          List<Integer> statuses = new ArrayList<>();
          String rule = null;
          for (int i = 1; i <= ROUTE_LIMIT + 1; i++) {
            RawHttp.Response response = RawHttp.get(server.port(), ctx() + "/api/orders/" + i);
            statuses.add(response.status);
            rule = response.header("Tollgate-Rule");
          }
          List<Integer> expected = new ArrayList<>();
          for (int i = 0; i < ROUTE_LIMIT; i++) {
            expected.add(200);
          }
          expected.add(429);
          assertEquals(expected, statuses, "GET " + ctx() + "/api/orders/1.." + (ROUTE_LIMIT + 1));
          assertEquals("orders-by-route", rule);
        });
        if (!server.hasJaxRs()) {
          route.notApplicable = server.name() + " has no JAX-RS implementation";
        }
        check("a changed rules file applies (hot reload)", () -> {
          requireUp(up);
          int before = process.agentLines("reloaded").size();
          rewriteRules(rules, RELOADED_PATH_LIMIT);
          process.awaitAgentLog("reloaded", before + 1, AGENT_TIMEOUT);
          // what the client used stays used: the raised limit gives it just the difference
          assertStatuses(
              ctx() + "/hello", RELOADED_PATH_LIMIT - PATH_LIMIT, 1, "after reload");
        });
        check("the agent says it is ready", () -> {
          requireUp(up);
          process.awaitAgentLog("ready; watching", 1, AGENT_TIMEOUT);
        });
        scanLog(process, "with the agent");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      check("no linkage error nor agent ERROR in the logs", () -> {
        if (!logProblems.isEmpty()) {
          throw new AssertionError(logProblems.size() + " lines, the first ones:\n"
              + String.join("\n", logProblems.subList(0, Math.min(20, logProblems.size()))));
        }
      });
      return this;
    }

    /** A started instance: the time it took to serve, or why it did not. */
    static final class Started {
      final ServerProcess process;
      final Duration time;
      final Throwable failure;

      Started(ServerProcess process, Duration time, Throwable failure) {
        this.process = process;
        this.time = time;
        this.failure = failure;
      }

      Duration time() throws Throwable {
        if (failure != null) {
          throw failure;
        }
        return time;
      }
    }

    /**
     * Lays out an instance in {@code name}/ and starts it until it serves. Once more, on new
     * ports, when another process took one of its ports between the choice and the bind (the
     * machine runs other builds too).
     */
    private Started start(String name, String agentOption) throws IOException {
      String label = server.name() + (agentOption == null ? "" : " with the agent");
      for (int attempt = 1; ; attempt++) {
        Path instance = Files.createDirectories(dir.resolve(attempt == 1 ? name : name + attempt));
        Progress.say("smoke matrix", "starting " + label + " on " + server.jdk());
        ServerProcess process = ServerProcess.start(label, server.prepare(instance, agentOption));
        try {
          Duration took = process.awaitReady(server.port(), ctx() + "/health", START_TIMEOUT);
          Progress.say("smoke matrix", label + " serves, after " + seconds(took));
          return new Started(process, took, null);
        } catch (Throwable failed) {
          Progress.say("smoke matrix", label + " did not start: " + failed);
          if (attempt == 1 && process.log().contains("Address already in use")) {
            closeQuietly(process);
            continue;
          }
          return new Started(process, null, failed);
        }
      }
    }

    private static void closeQuietly(ServerProcess process) {
      try {
        process.close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    private static void requireUp(boolean up) {
      if (!up) {
        throw new AssertionError("the server did not start");
      }
    }

    private void everyRequestPasses() throws IOException {
      String[][] requests = {
        {"GET", "/hello", "hello"},
        {"POST", "/hello", "hello posted"},
        {"POST", "/login", "logged in"},
        {"GET", "/api/orders/7", "order 7"},
        {"GET", "/api/search", "search results"},
        {"GET", "/api/export", "export"},
        {"GET", "/health", "ok"},
      };
      for (String[] request : requests) {
        // More than any limit the rules set, so a rule left in place would show.
        for (int i = 0; i < RELOADED_PATH_LIMIT + 2; i++) {
          RawHttp.Response response = RawHttp.send(request[0], server.port(), ctx() + request[1]);
          assertEquals(200, response.status, request[0] + " " + request[1] + ": " + response);
          assertEquals(request[2] + "\n", response.body, request[0] + " " + request[1]);
        }
      }
    }

    private void attach(ServerProcess process, Path rules) throws Exception {
      List<String> command = List.of(server.jdk().javaExecutable(), "-jar",
          TestPaths.agentJar().getAbsolutePath(), "attach", Long.toString(process.jvmPid()),
          "config=" + rules);
      Path out = dir.resolve("attach.log");
      Process attach = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(out.toFile()).start();
      if (!attach.waitFor(AGENT_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        attach.destroyForcibly();
        throw new AssertionError("attach did not finish within " + AGENT_TIMEOUT);
      }
      String said = new String(Files.readAllBytes(out), StandardCharsets.UTF_8);
      assertEquals(0, attach.exitValue(), "attach: " + said);
      process.awaitAgentLog("ready; watching", 1, AGENT_TIMEOUT);
    }

    private void assertStatuses(String path, int allowed, int refused, String what)
        throws IOException {
      List<Integer> expected = new ArrayList<>();
      List<Integer> actual = new ArrayList<>();
      for (int i = 0; i < allowed + refused; i++) {
        expected.add(i < allowed ? 200 : 429);
        actual.add(RawHttp.get(server.port(), path).status);
      }
      assertEquals(expected, actual, what + ": statuses of GET " + path);
    }

    private void assertCompleteRefusal(RawHttp.Response refusal) {
      // Tomcat writes no reason phrases at all; every server that writes one must write this one.
      assertTrue(refusal.statusLine.equals("HTTP/1.1 429 Too Many Requests")
              || refusal.statusLine.trim().equals("HTTP/1.1 429"),
          "status line: '" + refusal.statusLine + "'");
      String retryAfter = refusal.header("Retry-After");
      assertTrue(retryAfter != null && Long.parseLong(retryAfter) >= 1, "Retry-After " + retryAfter);
      assertEquals("\"hello-per-ip\";q=" + PATH_LIMIT + ";w=3600", refusal.header("RateLimit-Policy"));
      String rateLimit = refusal.header("RateLimit");
      assertTrue(rateLimit != null && rateLimit.startsWith("\"hello-per-ip\";r=0;t="),
          "RateLimit " + rateLimit);
      assertEquals("no-store", refusal.header("Cache-Control"));
      String type = refusal.header("Content-Type");
      assertTrue(type != null && type.startsWith("application/problem+json"), "Content-Type " + type);
      assertTrue(refusal.body.replace(" ", "").contains("\"status\":429")
          && refusal.body.contains("hello-per-ip"), "body " + refusal.body);
    }

    private void scanLog(ServerProcess process, String run) {
      for (String line : process.logLines()) {
        if (ServerProcess.isAgentError(line)
            || FORBIDDEN.stream().anyMatch(line::contains)) {
          logProblems.add(run + ": " + line);
        }
      }
    }

    private void writeRules(Path file, int pathLimit) throws IOException {
      Files.write(file, rules(pathLimit).getBytes(StandardCharsets.UTF_8));
    }

    /** Overwrites the file in place, as an editor saves it. */
    private void rewriteRules(Path file, int pathLimit) throws IOException {
      Files.write(file, rules(pathLimit).getBytes(StandardCharsets.UTF_8),
          StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
    }

    private String rules(int pathLimit) {
      return String.join("\n",
          "rules:",
          "  - name: hello-per-ip",
          "    match:",
          "      path: " + ctx() + "/hello",
          "      methods: [GET]",
          "    key: ip",
          "    limit: " + pathLimit,
          "    period: 1h",
          "  - name: orders-by-route",
          "    match:",
          "      route: \"" + ctx() + "/api/orders/{id}\"",
          "    key: ip",
          "    limit: " + ROUTE_LIMIT,
          "    period: 1h",
          "");
    }
  }
}
