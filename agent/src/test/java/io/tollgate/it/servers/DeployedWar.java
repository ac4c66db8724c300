package io.tollgate.it.servers;

import io.tollgate.it.TestPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A WAR test app deployed on a standalone Tomcat of the smoke matrix (its first one for that WAR:
 * war-javax on Tomcat 9, war-jakarta on Tomcat 10.1), with or without the agent, for tests outside this package that
 * need the WARs as an operator runs them. Closed by the test, which ends the server.
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
   * Lays out a Tomcat instance under {@code dir} with {@code war} deployed and starts it until
   * {@code /health} answers; {@code agentArguments} are the agent's ({@code config=...}), or null
   * for a run without the agent.
   */
  public static DeployedWar start(String war, Path dir, String agentArguments)
      throws IOException, InterruptedException {
    // the first Tomcat of the smoke matrix that runs it, so that both name the same versions
    Server server = ServerSmokeMatrixIT.servers().stream()
        .filter(s -> s instanceof Tomcat && s.war().equals(war))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no Tomcat of the smoke matrix runs " + war));
    String agentOption = agentArguments == null ? null
        : "-javaagent:" + TestPaths.agentJar().getAbsolutePath() + "=" + agentArguments;
    Files.createDirectories(dir);
    ServerProcess process = ServerProcess.start(
        server.name() + (agentOption == null ? "" : " with the agent"), server.prepare(dir, agentOption));
    try {
      process.awaitReady(server.port(), server.contextPath() + "/health", START_TIMEOUT);
    } catch (RuntimeException | Error | InterruptedException failed) {
      process.close();
      throw failed;
    }
    return new DeployedWar(server, process);
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
