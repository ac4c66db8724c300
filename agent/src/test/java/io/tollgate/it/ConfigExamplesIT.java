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
 * the Redis ones included: validate checks them without connecting to their server.
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
    CliIT.Result result = CliIT.run("validate", file.toString());
    assertEquals(0, result.exitCode, result.err);
    assertTrue(result.out.contains(": valid, "), result.out);
  }
}
