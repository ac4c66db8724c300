package io.tollgate.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Agent options, as {@code -javaagent:tollgate-agent.jar=...} and {@code attach} pass them: a
 * typo is a problem that names it, never a silent default that switches limiting off.
 */
class AgentArgumentsTest {

  @ParameterizedTest(name = "''{0}'': config {1}, debug {2}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      nullValues = "-",
      value = {
        // arguments                          | config              | debug
        "config=rules.yaml                    | rules.yaml          | -",
        "rules.yaml                           | rules.yaml          | -",
        "/etc/app/rules.yaml,debug=true       | /etc/app/rules.yaml | true",
        "rules.yaml,debug                     | rules.yaml          | true",
        "debug=FALSE,config=/r.yaml           | /r.yaml             | FALSE",
        "\" config = a.yaml , debug = true \"   | a.yaml              | true",
        "rules                                | rules               | -",
      })
  void validOptions(String text, String config, String debug) {
    AgentArguments arguments = AgentArguments.parse(text);
    assertEquals(List.of(), arguments.problems());
    assertEquals(config, arguments.get("config"));
    assertEquals(debug, arguments.given("debug") ? arguments.get("debug") : null);
  }

  @ParameterizedTest(name = "''{0}'' is a problem: {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        // arguments                        | the problem says
        "conifg=rules.yaml                  | unknown option 'conifg' (in 'conifg=rules.yaml'); did you mean 'config'?",
        "debgu=true                         | unknown option 'debgu' (in 'debgu=true'); did you mean 'debug'?",
        "debgu                              | unknown option 'debgu'; did you mean 'debug'?",
        "log_file=/tmp/t.log                | did you mean 'log-file'?",
        "colour=blue                        | unknown option 'colour' (in 'colour=blue'). The options are config, debug,",
        "debug=yes                          | option debug=yes: expected true or false, got 'yes'",
        "fail-on-error=ture                 | option fail-on-error=ture: expected true or false, got 'ture'",
        "metrics-port=abc                   | option metrics-port=abc: expected a port number (0-65535), got 'abc'",
        "metrics-port=70000                 | expected a port number (0-65535), got '70000'",
        "entry-point-warning-after=1x       | option entry-point-warning-after=1x: expected a duration",
        "refusal-log=lots                   | option refusal-log=lots: expected a number of lines per rule per minute, or off",
        "config=                            | option config=: expected a path, got nothing",
        "metrics-host                       | option 'metrics-host' needs a value: metrics-host=VALUE",
        "config=a.yaml,b.yaml               | option 'config' is given twice ('a.yaml' and 'b.yaml'); the first is used",
      })
  void wrongOptionsAreProblemsThatNameThem(String text, String message) {
    List<String> problems = AgentArguments.parse(text).problems();
    assertEquals(1, problems.size(), problems.toString());
    assertTrue(problems.get(0).contains(message), problems.get(0));
  }

  @Test
  void aWrongValueIsNotUsedAndTheOthersAre() {
    AgentArguments arguments = AgentArguments.parse("debug=yes,metrics-port=abc,config=r.yaml");
    assertEquals(2, arguments.problems().size(), arguments.problems().toString());
    assertNull(arguments.get("debug"));
    assertNull(arguments.get("metrics-port"));
    assertEquals("r.yaml", arguments.get("config"));
  }

  @ParameterizedTest(name = "refusal-log={0} is {1} lines a minute")
  @CsvSource({"off, 0", "OFF, 0", "0, 0", "3, 3", "250, 250"})
  void refusalLogLines(String value, int lines) {
    AgentArguments arguments = AgentArguments.parse("refusal-log=" + value);
    assertEquals(List.of(), arguments.problems());
    assertEquals(lines, arguments.linesPerMinute("refusal-log", 10));
  }

  @Test
  void aMalformedSystemPropertyIsAProblemAndNotUsed() {
    System.setProperty("tollgate.debug", "yes");
    try {
      AgentArguments arguments = AgentArguments.parse("config=r.yaml");
      assertEquals(List.of("-Dtollgate.debug=yes: expected true or false, got 'yes'"),
          arguments.problems());
      assertNull(arguments.get("debug"));
      // The argument wins over the property, and then the property is not looked at.
      assertEquals(List.of(), AgentArguments.parse("debug=true").problems());
    } finally {
      System.clearProperty("tollgate.debug");
    }
  }

  @Test
  void noArgumentsNoProblems() {
    assertEquals(List.of(), AgentArguments.parse((String) null).problems());
    assertEquals(List.of(), AgentArguments.parse(" , ").problems());
  }

  @ParameterizedTest(name = "-D{0} is {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "tollgate.confg | unknown system property -Dtollgate.confg; did you mean -Dtollgate.config?",
        "tollgate.debgu | unknown system property -Dtollgate.debgu; did you mean -Dtollgate.debug?",
        "tollgate.metrics.port | unknown system property -Dtollgate.metrics.port; did you mean"
            + " -Dtollgate.metrics-port?",
        "tollgate.colour | unknown system property -Dtollgate.colour. The agent reads"
            + " -Dtollgate.NAME for NAME one of config,",
        // The attach command's own option, not a setting a property gives
        "tollgate.attach-report | unknown system property -Dtollgate.attach-report"
      })
  void aPropertyThatNamesNoOptionIsAProblem(String property, String message) {
    List<String> problems = new ArrayList<>();
    AgentArguments.unknownProperties(List.of(property, "java.version", "tollgatex"), problems);
    assertEquals(1, problems.size(), problems.toString());
    assertTrue(problems.get(0).startsWith(message), problems.get(0));
  }

  @Test
  void optionsTestSwitchesAndOtherSettingsAreNotProblems() {
    List<String> problems = new ArrayList<>();
    AgentArguments.unknownProperties(
        List.of("tollgate.config", "tollgate.refusal-log", "tollgate.test.inject-failure",
            "tollgate.jmx.disabled", "tollgate.redis.batch", "tollgate.redis.batch.window",
            "user.dir"),
        problems);
    assertEquals(List.of(), problems);
  }

  @ParameterizedTest(name = "{0} is {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "TOLLGATE_CONFG | unknown environment variable TOLLGATE_CONFG; did you mean TOLLGATE_CONFIG?",
        "TOLLGATE_METRICSPORT | unknown environment variable TOLLGATE_METRICSPORT; did you mean"
            + " TOLLGATE_METRICS_PORT?",
        "TOLLGATE_HOME | unknown environment variable TOLLGATE_HOME. The agent reads TOLLGATE_NAME",
        "TOLLGATE_ATTACH_REPORT | unknown environment variable TOLLGATE_ATTACH_REPORT"
      })
  void aVariableThatNamesNoOptionIsAProblem(String variable, String message) {
    List<String> problems = new ArrayList<>();
    AgentArguments.unknownVariables(
        List.of(variable, "TOLLGATE_CONFIG", "TOLLGATE_LOG_FILE", "PATH"), problems);
    assertEquals(1, problems.size(), problems.toString());
    assertTrue(problems.get(0).startsWith(message), problems.get(0));
  }

  @Test
  void theAttachCommandsReportFileIsAnOptionButNotASetting() {
    AgentArguments arguments = AgentArguments.parse("config=rules.yaml,attach-report=/tmp/r");
    assertEquals(List.of(), arguments.problems());
    assertEquals("/tmp/r", arguments.get(AgentArguments.ATTACH_REPORT));
    assertTrue(!AgentArguments.NAMES.contains(AgentArguments.ATTACH_REPORT), "not listed");
  }
}
