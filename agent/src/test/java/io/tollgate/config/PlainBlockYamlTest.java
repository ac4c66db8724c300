package io.tollgate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.io.StringReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;

/**
 * The plain subset of YAML read without SnakeYAML gives the very nodes SnakeYAML composes from
 * the same text (classes, tags, values, lines and columns), so that every message is the same;
 * any other text is left to SnakeYAML.
 */
class PlainBlockYamlTest {

  private static final String LONG_FILE_RULE =
      "  - name: tenant-7\n    match:\n      path: /tenants/t7/**\n    key: ip\n    limit: 100\n"
          + "    period: 1m\n";

  /** Text in the subset: read here, and read the same as SnakeYAML reads it. */
  @ParameterizedTest
  @ValueSource(strings = {
    "rules:\n" + LONG_FILE_RULE,
    "rules:\n" + LONG_FILE_RULE + LONG_FILE_RULE
        + "  - name: hello\n    match:\n      path: /hello\n      methods: [GET]\n    key: ip\n"
        + "    limit: 1000000000\n    period: 1s",
    "rules:\n- name: a\n  key: [ip, header]\n  limit: -5\n  period: 1m\n- name: b\n",
    "# comment\n\nbackend: local\n  # indented comment\nmode: shadow\nrules: []\n",
    "rules: [ ]\nheaders: draft-8\n",
    "rules:\n  - name: a\n    key: header:X-Api-Key\n    match:\n      methods: [ GET , POST ]\n"
        + "      hosts:\n        - a.example.com\n        - '*.b'\n",
    "rules:\n  - name: a\n    key: header:X-Api-Key\n    match:\n      methods: [ GET , POST ]\n"
        + "      hosts:\n        - a.example.com\n        - b.example.com\n",
    "rules:\n  -   name: x\n      limit: ~\n      period: null\n      burst: 1_000\n",
    "a:\n  b:\n    c:\n    - d\n    - e:\n      - f\n  g: h\n",
    "a:\n  b:\n    c:\n    - d\n    - e:\n      - f\n  g: h",
    "  rules:\n  - name: x\n",
    "rules:\n  - name: a\n    name: b\n    limt: 3\n    period: 1m\n    url: http://x:80/y\n",
    "- name: a\n- b\n",
  })
  void readHereAsSnakeYamlReadsIt(String text) {
    Node plain = PlainBlockYaml.read(text, new NullAndMergeResolver(), Integer.MAX_VALUE);
    Node composed = snakeYaml(text);
    if (text.contains("'*.b'")) {
      assertNull(plain, "quotes are SnakeYAML's");
      return;
    }
    assertNotNull(plain, "read here:\n" + text);
    assertSame(composed, plain, "$");
  }

  /** Text outside the subset, valid YAML or not: left to SnakeYAML. */
  @ParameterizedTest
  @ValueSource(strings = {
    "",
    "# only a comment\n",
    "rules:\n",
    "rules:\n  - name: a\n    limit:\n    period: 1m\n",
    "rules:\n  - name: a # a comment after a value\n",
    "rules:\n  - name: a \n",
    "rules:\n  - name: \"a\"\n",
    "rules:\n  - &a name: a\n  - *a\n",
    "rules:\n  - <<: {key: ip}\n    name: a\n",
    "rules:\n\t- name: a\n",
    "rules:\r\n  - name: a\r\n",
    "rules:\n  - name: caf\u00e9\n",
    "---\nrules: []\n",
    "rules: []\n---\nrules: []\n",
    "rules:\n  - name: a\n    limit: 100\n      200\n",
    "rules:\n  - name: a\n   key: ip\n",
    "rules:\n  - name: a\n  key: ip\n",
    "rules:\n  - - a\n",
    "rules:\n  - [a]\n",
    "rules: {a: b}\n",
    "rules:\n  - name: a\n    methods: [GET, [POST]]\n",
    "rules:\n  - name: a\n    methods: [GET,]\n",
    "rules:\n  - name: a\n    methods: [GET] x\n",
    "rules:\n  - name: a\n    key: header: x\n",
    "rules:\n  - name: a\n    key: header:\n",
    "rules:\n  - name: a\n    body: Too many requests\n",
    "rules:\n  - name: a\n    path: /a/{id}\n",
    "rules:\n  - name: a\n    redis: ${REDIS_URL}\n",
    "rules:\n  - name: a\n    key: !!str ip\n",
    "rules:\n  - name: a\n    key: |\n      ip\n",
    "rules:\n  - name: a\n    key: ip\nmode shadow\n",
    "hello\n",
    "rules:\n  -\n    name: a\n",
    "rules:\n  - \n",
    "rules:\n  - name: -\n",
    "rules:\n  - name: *x\n",
  })
  void leftToSnakeYaml(String text) {
    assertNull(PlainBlockYaml.read(text, new NullAndMergeResolver(), Integer.MAX_VALUE), text);
  }

  @Test
  void aTextLongerThanSnakeYamlReadsIsLeftToIt() {
    String text = "rules:\n" + LONG_FILE_RULE;
    assertNotNull(PlainBlockYaml.read(text, new NullAndMergeResolver(), text.length()));
    assertNull(PlainBlockYaml.read(text, new NullAndMergeResolver(), text.length() - 1));
  }

  static Stream<Path> filesOfTheProject() throws IOException, URISyntaxException {
    Path corpus = Paths.get(PlainBlockYamlTest.class.getResource("/validate-corpus").toURI());
    Path config = Paths.get(PlainBlockYamlTest.class.getResource("/config").toURI());
    Stream<Path> files = Stream.of(ConfigExamplesTest.examples(), corpus, config)
        .flatMap(dir -> {
          try (Stream<Path> list = Files.list(dir)) {
            return list.collect(Collectors.toList()).stream();
          } catch (IOException e) {
            throw new IllegalStateException(e);
          }
        });
    return files.filter(f -> f.getFileName().toString().endsWith(".yaml")).sorted();
  }

  /** Every example and broken file of the project: the same nodes wherever read here. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("filesOfTheProject")
  void theProjectsFilesReadTheSameWhereverReadHere(Path file) throws IOException {
    String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    Node plain = PlainBlockYaml.read(text, new NullAndMergeResolver(), Integer.MAX_VALUE);
    if (plain != null) {
      assertSame(snakeYaml(text), plain, "$");
    }
  }

  private static Node snakeYaml(String text) {
    LoaderOptions options = new LoaderOptions();
    options.setAllowDuplicateKeys(true);
    try {
      return new Composer(new ParserImpl(new StreamReader(new StringReader(text)), options),
          new NullAndMergeResolver(), options).getSingleNode();
    } catch (YAMLException e) {
      return null;
    }
  }

  /** The same node: class, tag, value, start line and column; the same children. */
  private static void assertSame(Node expected, Node actual, String path) {
    assertNotNull(expected, path + ": SnakeYAML refuses what was read here");
    assertEquals(expected.getClass(), actual.getClass(), path);
    assertEquals(expected.getTag(), actual.getTag(), path);
    assertEquals(expected.getStartMark().getLine(), actual.getStartMark().getLine(), path + " line");
    assertEquals(expected.getStartMark().getColumn(), actual.getStartMark().getColumn(),
        path + " column");
    assertEquals(expected.getStartMark().getIndex(), actual.getStartMark().getIndex(), path + " index");
    if (expected instanceof ScalarNode) {
      assertEquals(((ScalarNode) expected).getValue(), ((ScalarNode) actual).getValue(), path);
    } else if (expected instanceof SequenceNode) {
      List<Node> e = ((SequenceNode) expected).getValue();
      List<Node> a = ((SequenceNode) actual).getValue();
      assertEquals(e.size(), a.size(), path + " size");
      for (int i = 0; i < e.size(); i++) {
        assertSame(e.get(i), a.get(i), path + "[" + i + "]");
      }
    } else {
      List<NodeTuple> e = ((MappingNode) expected).getValue();
      List<NodeTuple> a = ((MappingNode) actual).getValue();
      assertEquals(e.size(), a.size(), path + " size");
      for (int i = 0; i < e.size(); i++) {
        assertSame(e.get(i).getKeyNode(), a.get(i).getKeyNode(), path + ".key" + i);
        assertSame(e.get(i).getValueNode(), a.get(i).getValueNode(), path + "." + i);
      }
    }
  }
}
