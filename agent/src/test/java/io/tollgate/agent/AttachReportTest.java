package io.tollgate.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** What the agent in the target writes is what the attach command reads back. */
class AttachReportTest {

  @TempDir Path dir;

  static Stream<Arguments> reports() {
    return Stream.of(
        Arguments.of(true, "loaded 1 rule: hello from /r.yaml", List.of()),
        Arguments.of(false, "the rules file /r.yaml is not in force; in force: 0 rules",
            List.of("/r.yaml: line 6, column 12: limit must be a positive integer, got 'lots'",
                "the rules file /r.yaml was not applied (1 problem)")),
        // A message of several lines (a stack trace) comes back as one error
        Arguments.of(false, "the rules file /r.yaml is not in force",
            List.of("the agent could not start\njava.lang.IllegalStateException: x\n\tat A.b(A.java:1)",
                "error: a message that starts like the mark")),
        // A summary is one line whatever it holds
        Arguments.of(true, "no rules file named; in force: 0 rules", List.of("-Dtollgate.confg")));
  }

  @ParameterizedTest
  @MethodSource("reports")
  void whatTheAgentWritesTheCommandReads(boolean inForce, String summary, List<String> errors)
      throws Exception {
    Path file = Files.createFile(dir.resolve("report"));
    new AttachReport(inForce, summary, errors)
        .writeIfAsked(AgentArguments.parse("attach-report=" + file));

    AttachReport read = AttachReport.read(file);
    assertEquals(inForce, read.rulesInForce());
    assertEquals(summary, read.summary());
    assertEquals(errors, read.errors());
  }

  @ParameterizedTest(name = "a file holding \"{0}\" is no report")
  @ValueSource(strings = {"", "in-force", "attached\nloaded 1 rule"})
  void anAgentThatWroteNothingGivesNoReport(String content) throws Exception {
    Path file = Files.write(dir.resolve("report"), content.getBytes(StandardCharsets.UTF_8));
    assertNull(AttachReport.read(file));
  }
}
