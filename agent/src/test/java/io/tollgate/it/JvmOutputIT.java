package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A JVM prints the same with the agent as without it, but for the agent's own {@code [tollgate]}
 * lines: the JVM says nothing because of the agent. It did while the agent appended its jar to the
 * bootstrap class path: "OpenJDK 64-Bit Server VM warning: Sharing is only supported for boot
 * loader classes because bootstrap classpath has been appended", on the application's standard
 * error, on JDK 17 and 25 alike.
 */
class JvmOutputIT {

  @TempDir Path dir;

  static List<Jdk> jdks() {
    return Jdk.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void aJvmPrintsWithTheAgentWhatItPrintsWithoutIt(Jdk jdk) throws Exception {
    jdk.require();
    Path rules = RulesFiles.helloPerIp(dir, 5);
    Printed without = run(jdk, "without", null);
    Printed with = run(jdk, "with",
        "-javaagent:" + TestPaths.agentJar().getAbsolutePath() + "=config=" + rules);

    assertTrue(with.agentLines().stream().anyMatch(line -> line.contains("starting on Java")),
        "the agent started: " + with);
    assertEquals(without.stdout, withoutAgentLines(with.stdout), "standard output");
    assertEquals(without.stderr, withoutAgentLines(with.stderr), "standard error");
  }

  private Printed run(Jdk jdk, String name, String agentOption) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(jdk.javaExecutable());
    if (agentOption != null) {
      command.add(agentOption);
    }
    command.add("-cp");
    command.add(new File(PrintsAndEndsMain.class.getProtectionDomain().getCodeSource()
        .getLocation().toURI()).getAbsolutePath());
    command.add(PrintsAndEndsMain.class.getName());
    Path out = dir.resolve(name + ".out");
    Path err = dir.resolve(name + ".err");
    Process process = new ProcessBuilder(command)
        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(name + ": the JVM did not end within 120 s");
    }
    assertEquals(0, process.exitValue(), name + ": exit status");
    return new Printed(lines(out), lines(err));
  }

  private static List<String> lines(Path file) throws IOException {
    return Files.readAllLines(file, StandardCharsets.UTF_8);
  }

  private static List<String> withoutAgentLines(List<String> lines) {
    return lines.stream().filter(line -> !line.startsWith("[tollgate]"))
        .collect(Collectors.toList());
  }

  private static final class Printed {
    final List<String> stdout;
    final List<String> stderr;

    Printed(List<String> stdout, List<String> stderr) {
      this.stdout = stdout;
      this.stderr = stderr;
    }

    List<String> agentLines() {
      List<String> all = new ArrayList<>(stdout);
      all.addAll(stderr);
      return all.stream().filter(line -> line.startsWith("[tollgate]"))
          .collect(Collectors.toList());
    }

    @Override
    public String toString() {
      return "stdout " + stdout + ", stderr " + stderr;
    }
  }
}
