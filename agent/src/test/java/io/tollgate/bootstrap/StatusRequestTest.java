package io.tollgate.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Which attaches are the {@code status} command's: those the bootstrap tier answers without
 * starting an agent where none runs.
 */
class StatusRequestTest {

  static Stream<Arguments> arguments() {
    return Stream.of(
        Arguments.of(null, false),
        Arguments.of("", false),
        Arguments.of("config=/etc/rules.yaml", false),
        Arguments.of("status-report=/tmp/tollgate-status-1.json", true),
        Arguments.of("debug=true, status-report=/tmp/s.json", true),
        // a rules file whose name starts like it is an attach like any other
        Arguments.of("config=status-report.yaml", false),
        Arguments.of("status-report.yaml", false));
  }

  @ParameterizedTest(name = "\"{0}\" is a status request: {1}")
  @MethodSource("arguments")
  void onlyTheStatusCommandsArgumentsAreAStatusRequest(String agentArgs, boolean status) {
    assertEquals(status, AgentStarter.isStatusRequest(agentArgs));
  }
}
