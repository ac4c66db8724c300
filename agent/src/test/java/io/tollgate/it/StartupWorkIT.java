package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the agent's start-up work is done, told by the classes loaded ({@code -Xlog:class+load}),
 * never by a time: what the first decision needs is loaded by the agent's start-up thread before
 * any request, so that the application's first request does not load it, and that request is still
 * decided.
 */
class StartupWorkIT {

  /** A class, and why it must be loaded once the agent says {@code ready}, before any request. */
  private static final List<String[]> LOADED_BEFORE_THE_FIRST_REQUEST =
      List.<String[]>of(
          new String[] {
            ".shaded.com.github.benmanes.caffeine.cache.BoundedLocalCache ",
            "Caffeine's cache, which the first decision makes"
          },
          new String[] {
            "io.tollgate.instrumentation.ApiPerClass$NoApi ",
            "the frameworks' API per request class (ApiPerClass), which the first request reads"
          });

  @TempDir Path dir;

  @Test
  void whatTheFirstDecisionLoadsIsLoadedBeforeTheFirstRequest() throws Exception {
    try (ForkedApp app = servletJakartaLoggingClassLoads()) {
      for (String[] row : LOADED_BEFORE_THE_FIRST_REQUEST) {
        // The start-up thread loads it before it logs "ready"; the JVM's line may come after ours.
        String line = app.awaitOutput(row[0], Duration.ofSeconds(30));
        assertTrue(line.contains(row[0]), row[1] + " is loaded before the first request");
      }
      HttpResponse<String> first = app.get("/hello");
      assertEquals(200, first.statusCode());
      assertTrue(first.headers().firstValue("RateLimit").isPresent(),
          "the first request is decided: " + first.headers().map());
    }
  }

  /**
   * The entry points are listed in {@code premain}, on the application's main thread; their
   * weavers are named there, not loaded: a weaver is loaded when it first weaves a method, so an
   * application loads those of its own frameworks only.
   */
  @Test
  void aWeaverIsLoadedWhenItWeavesNotWhenTheEntryPointsAreListed() throws Exception {
    try (ForkedApp app = servletJakartaLoggingClassLoads()) {
      assertEquals(200, app.get("/hello").statusCode());
      // A servlet and Tomcat's host valve were woven with it
      app.awaitOutput("io.tollgate.instrumentation.RequestEntryWeaver ", Duration.ofSeconds(30));
      assertNeverLoaded(app, "nothing here weaves with",
          "io.tollgate.instrumentation.jaxrs.cxf.JaxrsInvokerWeaver ",
          "io.tollgate.instrumentation.grizzly.GrizzlyContainerWeaver ",
          "io.tollgate.instrumentation.outbound.okhttp.RealCallWeaver ",
          "io.tollgate.instrumentation.outbound.apache4.Apache4ExecuteWeaver ");
    }
  }

  /**
   * The classes the first weave of an entry point loads (ASM's reader and writer, the weavers'
   * base) are loaded by the agent's start-up thread, with a weave of its own, not by the thread
   * that loads the application's first entry point (its main thread, on the way to its first
   * request). Told on an application that loads nothing, so that its main thread cannot get
   * there first: without that weave, nothing here would load them.
   */
  @Test
  void theWeavingsClassesAreLoadedByTheStartUpThread() throws Exception {
    try (IdleApp app = idleAppLogging("class+load=info")) {
      app.awaitLine("[tollgate] ready;");
      // premain runs on the main thread: the thread that loads the agent's first class
      String mainThread = threadOf(app.awaitLine("] io.tollgate.bootstrap.TollgateAgent "));
      for (String weavingClass : new String[] {
          "] io.tollgate.shaded.net.bytebuddy.jar.asm.ClassReader ",
          "] io.tollgate.shaded.net.bytebuddy.jar.asm.ClassWriter ",
          "] io.tollgate.shaded.net.bytebuddy.jar.asm.Frame ",
          "] io.tollgate.instrumentation.MethodWeaver "}) {
        String line = app.awaitLine(weavingClass);
        assertFalse(threadOf(line).equals(mainThread),
            "loaded by the start-up thread, not the main thread: " + line);
      }
    }
  }

  /**
   * With {@code debug}, the start-up thread's CPU by phase follows its {@code ready} line, each
   * phase named, in the order the thread does them: the account the benchmarks read, from the
   * agent's own log. Only phases are asserted, never a time.
   */
  @Test
  void withDebugTheStartUpThreadsCpuIsToldByPhase() throws Exception {
    try (IdleApp app = idleAppLogging("class+load=info", "debug=true")) {
      app.awaitLine("[tollgate] ready;");
      String line = app.awaitLine("the start-up thread's CPU by phase: ");
      String phases = line.substring(line.indexOf("by phase: ") + "by phase: ".length());
      assertTrue(phases.matches("the weaving's warm-up \\d+ ms, the JDK's clients woven \\d+ ms,"
              + " the rules and the engine \\d+ ms, the first decision's classes \\d+ ms,"
              + " the background services \\d+ ms"),
          "each phase, in order: " + phases);
    }
  }

  /**
   * An application whose main thread loads nothing (it sleeps), with the agent on a rule for
   * /hello and {@code agentOptions}, the JVM logging {@code selectors} to its output with thread
   * ids.
   */
  private IdleApp idleAppLogging(String selectors, String... agentOptions) throws Exception {
    Path rules = RulesFiles.helloPerIp(dir, 5);
    List<String> command = List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-javaagent:" + TestPaths.agentJar().getAbsolutePath() + "=config=" + rules
            + (agentOptions.length == 0 ? "" : "," + String.join(",", agentOptions)),
        "-Xlog:" + selectors + ":stdout:tid",
        "-cp", Path.of(IdleMain.class.getProtectionDomain().getCodeSource().getLocation().toURI())
            .toString(),
        IdleMain.class.getName());
    return new IdleApp(new ProcessBuilder(command).redirectErrorStream(true).start());
  }

  /** The forked idle application and its output, read as it comes. */
  private static final class IdleApp implements AutoCloseable {
    private final Process process;
    private final List<String> output = new CopyOnWriteArrayList<>();

    IdleApp(Process process) {
      this.process = process;
      Thread pump = new Thread(() -> {
        try (BufferedReader reader = new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
          for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            output.add(line);
          }
        } catch (IOException ended) {
          // the process ended
        }
      }, "output of the idle main");
      pump.setDaemon(true);
      pump.start();
    }

    String awaitLine(String text) throws InterruptedException {
      return StartupWorkIT.awaitLine(output, text, process);
    }

    @Override
    public void close() throws InterruptedException {
      process.destroy();
      process.waitFor();
    }
  }

  /** Waits for a line of the process's output containing {@code text}, or fails showing it all. */
  private static String awaitLine(List<String> output, String text, Process process)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      for (String line : output) {
        if (line.contains(text)) {
          return line;
        }
      }
      if (!process.isAlive() && output.stream().noneMatch(line -> line.contains(text))) {
        break;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("no line containing '" + text + "'; output:\n"
        + String.join("\n", output));
  }

  /** The thread id of a class-load line logged with the {@code tid} decoration, "[1234] ...". */
  private static String threadOf(String line) {
    return line.substring(line.indexOf('[') + 1, line.indexOf(']'));
  }

  /**
   * What the rules and the agent's arguments do not use is not loaded by the start-up thread: an
   * outbound client's handler is made at the application's first call of that client, the
   * metrics exporter only with {@code metrics-port}, and the table of what a reload compares
   * ({@code CountedState}'s, 33 method references) at the first reload, for the budgets and for
   * a {@code penalty:} rule's boxes alike.
   */
  @Test
  void theStartDoesNotLoadTheOutboundClientsHandlersNorTheMetricsExporter() throws Exception {
    Path rules = RulesFiles.write(dir, "rules.yaml",
        "rules:",
        "  - name: hello-per-ip",
        "    match:",
        "      path: /hello",
        "      methods: [GET]",
        "    key: ip",
        "    limit: 5",
        "    period: 1m",
        "    penalty:",
        "      after: 3",
        "      within: 10m",
        "      box-for: 1h");
    try (ForkedApp app = servletJakartaLoggingClassLoads(rules)) {
      app.awaitOutput("[tollgate] ready;", Duration.ofSeconds(60));
      assertEquals(200, app.get("/hello").statusCode());
      app.awaitOutput("io.tollgate.shaded.com.github.benmanes.caffeine.cache.BoundedLocalCache ",
          Duration.ofSeconds(30));
      assertNeverLoaded(app, "nothing here loads",
          "io.tollgate.instrumentation.outbound.OutboundSends ",
          "io.tollgate.instrumentation.outbound.apache4.Apache4Requests ",
          "io.tollgate.instrumentation.outbound.okhttp.OkHttpCallsReader ",
          "io.tollgate.instrumentation.outbound.jdkhttp.JdkHttpClientCalls ",
          "io.tollgate.instrumentation.outbound.urlconnection.UrlConnectionCalls ",
          "io.tollgate.diagnostics.metrics.PrometheusExporter ",
          "io.tollgate.config.CountedState$Table ");
      // The handler made with the engine: the servlet module's, which that request went through
      assertTrue(app.output().stream().anyMatch(
          line -> line.contains("io.tollgate.instrumentation.servlet.ServletRequests ")),
          "the servlet module's handler is loaded");
    }
  }

  /**
   * The agent's own code links no lambda or method reference on its start path nor on the first
   * request's: each would spin a class at its first run (a bootstrap, a generated class, its
   * definition), where an anonymous class is loaded from the jar for less; the first request
   * waits for those of its own thread. Caffeine's own (shaded) lambdas are not the agent's to
   * change.
   */
  @Test
  void theAgentsOwnCodeSpinsNoLambdaClassBeforeTheFirstRequestIsAnswered() throws Exception {
    try (ForkedApp app = servletJakartaLoggingClassLoads()) {
      HttpResponse<String> first = app.get("/hello");
      assertEquals(200, first.statusCode());
      assertTrue(first.headers().firstValue("RateLimit").isPresent(),
          "the first request is decided: " + first.headers().map());
      for (String line : app.output()) {
        boolean agentsLambda = line.contains("$$Lambda") && line.contains(" io.tollgate.")
            && !line.contains(" io.tollgate.shaded.") && !line.contains(" io.tollgate.testapps.");
        assertFalse(agentsLambda, "a lambda of the agent's own, linked by the first 200: " + line);
      }
    }
  }

  /** servlet-jakarta with the agent on a rule for /hello, each class load logged, once ready. */
  private ForkedApp servletJakartaLoggingClassLoads() throws Exception {
    return servletJakartaLoggingClassLoads(RulesFiles.helloPerIp(dir, 5));
  }

  /** servlet-jakarta with the agent on {@code rules}, each class load logged, once ready. */
  private ForkedApp servletJakartaLoggingClassLoads(Path rules) throws Exception {
    ForkedApp app =
        ForkedApp.app("servlet-jakarta")
            .withAgent("config=" + rules)
            .jvmOption("-Xlog:class+load=info:stdout")
            .start();
    try {
      app.awaitOutput("ready;", Duration.ofSeconds(60));
      return app;
    } catch (Exception | AssertionError e) {
      app.close();
      throw e;
    }
  }

  /** No line of the app's class-load log names any of {@code classes} (each ends in a space). */
  private static void assertNeverLoaded(ForkedApp app, String why, String... classes) {
    for (String absent : classes) {
      for (String line : app.output()) {
        assertFalse(line.contains(absent), why + " " + absent + ": " + line);
      }
    }
  }
}
