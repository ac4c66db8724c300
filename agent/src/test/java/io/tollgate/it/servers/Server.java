package io.tollgate.it.servers;

import io.tollgate.it.Jdk;
import io.tollgate.it.TestPaths;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One server of the smoke matrix: where the build unpacked it, how an operator lays out an
 * instance of it with a WAR deployed, and how the agent goes in (the line the README gives).
 * Each instance lives in its own directory; the unpacked distribution is only read.
 */
abstract class Server {

  /** A command to run, in a directory, with an environment, and the log files it will write. */
  static final class Launch {
    final List<String> command = new ArrayList<>();
    final Map<String, String> environment = new LinkedHashMap<>();
    final List<Path> logFiles = new ArrayList<>();
    final Path workDir;

    Launch(Path workDir) {
      this.workDir = workDir;
    }
  }

  /** The name in reports, with its version: "WildFly 39.0.1.Final". */
  abstract String name();

  /** The WAR test app it runs: war-javax or war-jakarta. */
  abstract String war();

  /** Whether it brings a JAX-RS implementation, so that /api/orders/{id} is a JAX-RS route. */
  abstract boolean hasJaxRs();

  /**
   * Lays out a fresh instance under {@code dir} with the WAR deployed, and says how to start it.
   * {@code agentOption} is {@code -javaagent:...=config=...}, or null to start without the agent.
   * Returns the launch; {@link #port()} is where it will listen.
   */
  abstract Launch prepare(Path dir, String agentOption) throws IOException;

  /** The HTTP port of the instance last prepared. */
  abstract int port();

  Jdk jdk() {
    return Jdk.current();
  }

  String contextPath() {
    return "/" + war();
  }

  Path warFile() {
    return TestPaths.testAppWar(war()).toPath();
  }

  /** The distribution the build unpacked into target/servers/ (see agent/pom.xml). */
  static Path distribution(String name) {
    Path dir = new File(System.getProperty("tollgate.servers.dir", "target/servers"), name).toPath();
    if (!Files.isDirectory(dir)) {
      throw new IllegalStateException("missing server " + dir.toAbsolutePath()
          + "; `mvn -B verify` unpacks it (agent/pom.xml, unpack-smoke-matrix-servers)");
    }
    return dir;
  }

  static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path source : (Iterable<Path>) paths::iterator) {
        Path target = to.resolve(from.relativize(source).toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(target);
        } else {
          Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.write(file, text.getBytes(StandardCharsets.UTF_8));
  }

  /** Replaces {@code from} in a text file, failing when it is not there (a changed distribution). */
  static void edit(Path file, String from, String to) {
    try {
      String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
      if (!text.contains(from)) {
        throw new IllegalStateException(file + " has no '" + from + "'");
      }
      Files.write(file, text.replace(from, to).getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static int freePort() throws IOException {
    return ServerProcess.freePorts(1)[0];
  }

  @Override
  public String toString() {
    return name();
  }
}
