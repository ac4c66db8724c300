package io.tollgate.rules;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.config.Backend;
import io.tollgate.config.ConfigException;
import io.tollgate.config.RulesConfig;
import io.tollgate.config.RulesFileParser;
import io.tollgate.limiters.Clock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code validate} and the agent agree: every rules file of the repository that the parser accepts
 * is built by the agent's own {@link RuleSetFactory}, and what the agent cannot build, the parser
 * refuses with its line.
 */
class ValidateAgreesWithTheAgentTest {

  static Stream<Path> rulesFiles() throws IOException {
    List<Path> all = new ArrayList<>();
    for (String dir :
        new String[] {
          "src/test/resources/validate-corpus", "src/test/resources/config", "../config-examples"
        }) {
      try (Stream<Path> files = Files.walk(Paths.get(dir))) {
        all.addAll(
            files
                .filter(f -> f.getFileName().toString().endsWith(".yaml"))
                .sorted()
                .collect(Collectors.toList()));
      }
    }
    assertTrue(all.size() >= 20, "the corpus is there: " + all);
    return all.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rulesFiles")
  void whatTheParserAcceptsTheAgentBuilds(Path file) {
    RulesConfig config;
    try {
      config = RulesFileParser.parse(file, name -> "from-env");
    } catch (ConfigException refused) {
      return; // validate refuses it too, with its line (ValidateCorpusIT)
    }
    // The agent's build, as RulesHolder runs it; a Redis file without connecting to Redis.
    RuleSetFactory factory =
        config.backend() == Backend.REDIS
            ? RuleSetFactory.withoutConnecting(Clock.system())
            : new RuleSetFactory(Clock.system());
    RuleSet rules = assertDoesNotThrow(() -> factory.build(config, null), file.toString());
    assertEquals(config.rules().size(), rules.size());
    // validate's own factory (no reload fingerprints) builds the same rules, and no reload
    RuleSetFactory validate = RuleSetFactory.forOneBuild(Clock.system());
    RuleSet once = assertDoesNotThrow(() -> validate.build(config, null), file.toString());
    assertEquals(rules.size(), once.size());
    assertThrows(IllegalStateException.class, () -> validate.build(config, once));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "'client-ip: { trusted-proxies: [010.0.0.0/8] }'   | line 1 | leading zero",
        "'client-ip: { trusted-proxies: [10.0.0.01] }'     | line 1 | leading zero",
        "'client-ip: { trusted-proxies: [\"::ffff:10.0.0.0/64\"] }' | line 1 | IPv4-mapped",
        "'allow: { cidrs: [192.168.001.0/24] }'              | line 1 | leading zero",
        "'client-ip: { trusted-proxies: 33 }'               | line 1 | 0 to 32",
      })
  void whatTheAgentCannotBuildTheParserRefusesWithItsLine(
      String section, String line, String reason) {
    String yaml =
        section + "\nrules:\n  - name: r\n    match: { path: /x }\n    limit: 1\n    period: 1s\n";
    ConfigException e =
        assertThrows(ConfigException.class, () -> RulesFileParser.parse(yaml, "rules.yaml"));
    String problem = e.problems().get(0).toString();
    assertTrue(problem.startsWith("rules.yaml: " + line + ","), problem);
    assertTrue(problem.contains(reason), problem);
  }
}
