package io.tollgate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.tollgate.limiters.Clock;
import io.tollgate.rules.RuleSet;
import io.tollgate.rules.RuleSetFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.yaml.snakeyaml.Yaml;

/**
 * Every example an operator may copy is valid: against the JSON Schema, and for the agent itself
 * (the parser, then the rule factory; examples that need Redis are checked without connecting, with
 * the parser only).
 */
class ConfigExamplesTest {

  static Path examples() {
    String configured = System.getProperty("tollgate.config.examples");
    Path dir = configured != null ? Paths.get(configured) : Paths.get("..", "config-examples");
    if (!Files.isDirectory(dir)) {
      dir = Paths.get("config-examples");
    }
    assertTrue(Files.isDirectory(dir), "config-examples not found at " + dir.toAbsolutePath());
    return dir.toAbsolutePath().normalize();
  }

  static Stream<Path> rulesFiles() throws IOException {
    try (Stream<Path> files = Files.list(examples())) {
      return files
          .filter(f -> f.getFileName().toString().endsWith(".yaml"))
          .sorted()
          .collect(Collectors.toList())
          .stream();
    }
  }

  static Schema schema() {
    SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    try (InputStream in = Files.newInputStream(examples().resolve("tollgate-rules.schema.json"))) {
      return registry.getSchema(in, InputFormat.JSON);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void theExamplesAreThere() throws IOException {
    List<String> names = rulesFiles().map(p -> p.getFileName().toString())
        .collect(Collectors.toList());
    for (String expected : new String[] {"quickstart.yaml", "login-and-otp.yaml", "api-tiers.yaml",
        "cost-based.yaml", "redis.yaml", "redis-cluster.yaml", "login-bruteforce.yaml"}) {
      assertTrue(names.contains(expected), expected + " in " + names);
    }
    assertTrue(Files.isRegularFile(examples().resolve("kubernetes/deployment.yaml")));
    assertTrue(Files.isRegularFile(examples().resolve("kubernetes/configmap.yaml")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rulesFiles")
  void validAgainstTheSchema(Path file) throws IOException {
    String yaml = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    List<Error> errors = schema().validate(yaml, InputFormat.YAML);
    assertTrue(errors.isEmpty(), file.getFileName() + ": " + errors);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rulesFiles")
  void acceptedByTheAgent(Path file) throws Exception {
    RulesConfig config = RulesFileParser.parse(file);
    assertFalse(config.rules().isEmpty(), file + " has rules");
    RuleSetFactory factory = new RuleSetFactory(Clock.system());
    if (config.backend() == Backend.REDIS) {
      // Checked whole, without connecting to the example's server.
      assertEquals(List.of(), factory.check(config));
    } else {
      RuleSet rules = factory.build(config, null);
      assertEquals(config.rules().size(), rules.size());
    }
  }

  @Test
  void theKubernetesConfigMapHoldsAValidRulesFile() throws IOException, ConfigException {
    Path file = examples().resolve("kubernetes/configmap.yaml");
    Map<?, ?> configMap;
    try (InputStream in = Files.newInputStream(file)) {
      configMap = (Map<?, ?>) new Yaml().load(in);
    }
    assertEquals("ConfigMap", configMap.get("kind"));
    String rules = (String) ((Map<?, ?>) configMap.get("data")).get("rules.yaml");
    assertTrue(schema().validate(rules, InputFormat.YAML).isEmpty(),
        schema().validate(rules, InputFormat.YAML).toString());
    RuleSet ruleSet = new RuleSetFactory(Clock.system())
        .build(RulesFileParser.parse(rules, file + "#rules.yaml"), null);
    assertEquals(2, ruleSet.size());
  }

  /** The schema is not vacuous: it rejects what the parser rejects as unknown or mistyped. */
  @ParameterizedTest
  @ValueSource(strings = {
      "rules:\n  - name: a\n    limit: 5\n    perod: 1m\n",
      "header: draft\nrules: []\n",
      "rules:\n  - name: a\n    limit: 5\n    period: 60\n",
      "rules:\n  - name: a\n    limit: -1\n    period: 1m\n",
      "rules:\n  - name: a\n    limit: 5\n    period: 1m\n    mode: dry-run\n",
      "rules:\n  - name: a\n    limit: 5\n    period: 1m\n    key: ipaddress\n",
      "rules:\n  - name: a\n    limit: 5\n    period: 1m\n    algorithm: leaky\n",
      "rules:\n  - name: a b\n    limit: 5\n    period: 1m\n",
      "rules:\n  - name: a\n    period: 1m\n",
      "rules:\n  - name: a\n    limit: 5\n    period: 1m\n    cost: { search: 5 }\n",
      "rules:\n  - name: a\n    limit: 5\n    period: 1m\n    match: { methods: [FETCH] }\n",
      "rules:\n  - name: a\n    limit: 5\n    period: 1m\n    count-when: [401, 600]\n",
      "rules:\n  - name: a\n    limit: 5\n    period: 1m\n    count-when: failures\n",
      "rules:\n  - name: a\n    limit: 5\n    period: 1m\n    count-when: [6xx]\n",
      "rules:\n  - name: a\n    limit: 5\n    period: 1m\n    count-when: []\n",
      "client-ip:\n  ipv6-prefix: 129\nrules: []\n",
      "backend: redis\nredis:\n  uri: redis://cache:6379\n  max-wait: 2\nrules: []\n",
      "backend: redis\nredis:\n  uri: redis://cache:6379\n  max-wiat: 2s\nrules: []\n"
  })
  void theSchemaRejectsMistakes(String yaml) {
    assertFalse(schema().validate(yaml, InputFormat.YAML).isEmpty(), yaml);
  }
}
