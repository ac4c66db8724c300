package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code java -jar tollgate-agent.jar validate FILE} on a corpus of broken rules files: each is
 * rejected with exit code 1 and a message naming the file and the line that the file's own
 * {@code # expect: line N} comment gives (a file may have more problems than the one it is about).
 */
class ValidateCorpusIT {

  private static final Pattern EXPECT = Pattern.compile("#\\s*expect:\\s*line (\\d+)");

  static Path corpus() throws URISyntaxException {
    return Paths.get(ValidateCorpusIT.class.getResource("/validate-corpus").toURI());
  }

  static Stream<Path> badFiles() throws IOException, URISyntaxException {
    try (Stream<Path> files = Files.list(corpus())) {
      return files
          .filter(f -> f.getFileName().toString().endsWith(".yaml"))
          .sorted()
          .collect(Collectors.toList())
          .stream();
    }
  }

  @Test
  void theCorpusHasAtLeastTenFiles() throws Exception {
    assertTrue(badFiles().count() >= 10, "validate-corpus holds at least 10 bad files");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badFiles")
  void rejectedWithTheFileAndTheExpectedLine(Path file) throws Exception {
    int expectedLine = expectedLine(file);
    CliIT.Result result = CliIT.run("validate", file.toString());
    assertEquals(1, result.exitCode, "exit code for " + file + "; stdout: " + result.out
        + "; stderr: " + result.err);
    assertTrue(result.err.contains(file.toString()), "names the file: " + result.err);
    Matcher problem = Pattern.compile(Pattern.quote(file.toString()) + ": line (\\d+), column \\d+: ")
        .matcher(result.err);
    List<Integer> lines = new ArrayList<>();
    while (problem.find()) {
      lines.add(Integer.parseInt(problem.group(1)));
    }
    assertTrue(lines.contains(expectedLine),
        file.getFileName() + ": a problem on line " + expectedLine + ", got lines " + lines + ": "
            + result.err);
    assertTrue(result.out.isEmpty() || !result.out.contains("valid,"), result.out);
  }

  private static int expectedLine(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    for (String line : lines) {
      Matcher m = EXPECT.matcher(line);
      if (m.find()) {
        return Integer.parseInt(m.group(1));
      }
    }
    throw new AssertionError(file + " has no '# expect: line N' comment");
  }
}
