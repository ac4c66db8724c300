package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code java -jar tollgate-agent.jar validate} on every example in config-examples/: valid,
 * except the Redis ones, which this version refuses by name until the Redis backend lands.
 */
class ConfigExamplesIT {

  static Stream<Path> examples() throws IOException {
    Path dir = Paths.get(System.getProperty("tollgate.config.examples", "../config-examples"));
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(f -> f.getFileName().toString().endsWith(".yaml"))
          .sorted()
          .collect(Collectors.toList())
          .stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("examples")
  void validateAcceptsEachLocalExample(Path file) throws Exception {
    String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    CliIT.Result result = CliIT.run("validate", file.toString());
    if (text.contains("\nbackend: redis")) {
      assertEquals(1, result.exitCode, result.out + result.err);
      assertTrue(result.err.contains("backend: redis is not available in this version"),
          result.err);
    } else {
      assertEquals(0, result.exitCode, result.err);
      assertTrue(result.out.contains(": valid, "), result.out);
    }
  }
}
