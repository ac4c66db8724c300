package io.tollgate.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A test app running in its own JVM, with or without the agent, driven over HTTP on loopback.
 *
 * <p>Its standard output and error are kept line by line so that tests can read what the agent
 * logged. Always closed by the test (try-with-resources), which ends the process.
 */
public final class ForkedApp implements AutoCloseable {

  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

  private final String name;
  private final Process process;
  private final int port;
  private final List<String> output = new CopyOnWriteArrayList<>();
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private ForkedApp(String name, Process process, int port) {
    this.name = name;
    this.process = process;
    this.port = port;
  }

  /** Builder-style options for one start. */
  public static final class Options {
    final String app;
    Jdk jdk = Jdk.current();
    String agentArguments;
    boolean withAgent;
    final List<String> jvmOptions = new ArrayList<>();

    private Options(String app) {
      this.app = app;
    }

    public Options on(Jdk value) {
      this.jdk = value;
      return this;
    }

    /** Starts the app with {@code -javaagent:tollgate-agent.jar=ARGUMENTS}. */
    public Options withAgent(String arguments) {
      this.withAgent = true;
      this.agentArguments = arguments;
      return this;
    }

    public Options jvmOption(String option) {
      jvmOptions.add(option);
      return this;
    }

    public ForkedApp start() throws IOException, InterruptedException {
      return ForkedApp.start(this);
    }
  }

  public static Options app(String name) {
    return new Options(name);
  }

  private static ForkedApp start(Options options) throws IOException, InterruptedException {
    int port = freePort();
    List<String> command = new ArrayList<>();
    command.add(options.jdk.javaExecutable());
    command.add("-Xmx256m");
    command.add("-XX:TieredStopAtLevel=1");
    if (options.withAgent) {
      String agent = TestPaths.agentJar().getAbsolutePath();
      command.add("-javaagent:" + agent
          + (options.agentArguments == null ? "" : "=" + options.agentArguments));
    }
    command.addAll(options.jvmOptions);
    command.add("-jar");
    command.add(TestPaths.testAppJar(options.app).getAbsolutePath());
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("PORT", Integer.toString(port));
    builder.environment().remove("TOLLGATE_CONFIG");
    Process process = builder.start();
    ForkedApp app = new ForkedApp(options.app + " on " + options.jdk, process, port);
    app.pumpOutput();
    app.awaitListening();
    return app;
  }

  private void pumpOutput() {
    Thread pump =
        new Thread(
            () -> {
              try (BufferedReader reader =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                  output.add(line);
                }
              } catch (IOException ignored) {
                // The process ended.
              }
            },
            "output of " + name);
    pump.setDaemon(true);
    pump.start();
  }

  private void awaitListening() throws InterruptedException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(name + " exited with " + process.exitValue()
            + " before listening; its output:\n" + String.join("\n", output));
      }
      for (String line : output) {
        if (line.contains("listening on port " + port)) {
          return;
        }
      }
      Thread.sleep(50);
    }
    close();
    throw new IllegalStateException(name + " did not start within " + START_TIMEOUT
        + "; its output:\n" + String.join("\n", output));
  }

  public HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return send("GET", path, Map.of());
  }

  public HttpResponse<String> send(String method, String path, Map<String, String> headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(20))
            .method(method, HttpRequest.BodyPublishers.noBody());
    headers.forEach(request::header);
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Every line the app and the agent printed so far. */
  public List<String> output() {
    return new ArrayList<>(output);
  }

  /** The agent's lines: those starting with {@code [tollgate]}. */
  public List<String> agentLog() {
    List<String> lines = new ArrayList<>();
    for (String line : output) {
      if (line.startsWith("[tollgate]")) {
        lines.add(line);
      }
    }
    return lines;
  }

  /** Waits until a line containing {@code text} appears, or fails saying what was there. */
  public String awaitOutput(String text, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      for (String line : output) {
        if (line.contains(text)) {
          return line;
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError("no line containing '" + text + "' within " + timeout
        + "; output:\n" + String.join("\n", output));
  }

  public String name() {
    return name;
  }

  public long pid() {
    return process.pid();
  }

  public int port() {
    return port;
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
