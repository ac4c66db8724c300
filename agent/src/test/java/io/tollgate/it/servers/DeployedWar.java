package io.tollgate.it.servers;

import io.tollgate.it.TestPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A WAR test app deployed on a server of the smoke matrix, laid out as an operator does, with or
 * without the agent, for tests outside this package that need the WARs as they run in production.
 * Closed by the test, which ends the server.
 */
public final class DeployedWar implements AutoCloseable {

  private static final Duration START_TIMEOUT = Duration.ofMinutes(5);

  private final Server server;
  private final ServerProcess process;

  private DeployedWar(Server server, ServerProcess process) {
    this.server = server;
    this.process = process;
  }

  /**
   * The servers of the smoke matrix but Payara Micro (Java 21+, and over a minute to start; the
   * smoke matrix has it), each with its WAR: "Open Liberty 25.0.0.11 with war-jakarta", ...,
   * "Tomcat 9.0.98 with war-javax", "Jetty 12.1.4 ee10 with war-jakarta".
   */
  public static List<String> servers() {
    return ServerSmokeMatrixIT.servers().stream()
        .filter(s -> !(s instanceof PayaraMicro))
        .map(s -> s.name() + " with " + s.war())
        .collect(Collectors.toList());
  }

  /**
   * Lays out an instance of {@code server} (one of {@link #servers()}) under {@code dir} with
   * its WAR deployed and starts it until {@code /health} answers; {@code agentArguments} are the
   * agent's ({@code config=...}), or null for a run without the agent.
   */
  public static DeployedWar start(String server, Path dir, String agentArguments)
      throws IOException, InterruptedException {
    Server chosen = ServerSmokeMatrixIT.servers().stream()
        .filter(s -> server.equals(s.name() + " with " + s.war()))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no server of the smoke matrix is " + server));
    String agentOption = agentArguments == null ? null
        : "-javaagent:" + TestPaths.agentJar().getAbsolutePath() + "=" + agentArguments;
    Files.createDirectories(dir);
    ServerProcess process = ServerProcess.start(
        chosen.name() + (agentOption == null ? "" : " with the agent"), chosen.prepare(dir, agentOption));
    try {
      process.awaitReady(chosen.port(), chosen.contextPath() + "/health", START_TIMEOUT);
    } catch (RuntimeException | Error | InterruptedException failed) {
      process.close();
      throw failed;
    }
    return new DeployedWar(chosen, process);
  }

  public int port() {
    return server.port();
  }

  /** Where the WAR is deployed: {@code /war-jakarta}. */
  public String contextPath() {
    return server.contextPath();
  }

  /** The agent's lines in the server's console and log files. */
  public List<String> agentLog() {
    return process.logLines().stream().filter(l -> l.contains(ServerProcess.AGENT_TAG))
        .collect(Collectors.toList());
  }

  @Override
  public void close() throws InterruptedException {
    process.close();
  }

  @Override
  public String toString() {
    return server.name() + " with " + server.war();
  }
}
