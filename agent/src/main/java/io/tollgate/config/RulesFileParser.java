package io.tollgate.config;

import static io.tollgate.config.YamlNodes.describe;
import static io.tollgate.config.YamlNodes.isNull;

import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;

/**
 * Reads a rules file (section 3 of the interfaces document) into an immutable {@link RulesConfig}.
 *
 * <p>Validation is strict and complete: every problem in the file is collected, each with the line and
 * column of the offending node, and reported together in one {@link ConfigException}.
 *
 * <p>This class reads the top level of the file; each section has its parser ({@link
 * RedisSectionParser}, {@link ClientIpSectionParser}, {@link AllowParser}, {@link RuleParser} and
 * those of a rule's parts), all reading nodes through one {@link YamlNodes}, which collects the
 * problems.
 */
public final class RulesFileParser {
  /** Environment lookup used for {@code ${NAME}} in redis settings unless another one is passed. */
  public static final Function<String, String> SYSTEM_ENV = new Function<String, String>() {
    // A class, not a method reference: made at start, where linking one spins a class
    @Override
    public String apply(String name) {
      return System.getenv(name);
    }
  };

  static final List<String> TOP_LEVEL_KEYS =
      Arrays.asList("backend", "redis", "client-ip", "headers", "mode", "allow", "response", "rules",
          "outbound");

  private RulesFileParser() {}

  /** Reads and validates a UTF-8 rules file; problems name the file by the path as given. */
  public static RulesConfig parse(Path file) throws ConfigException {
    return parse(file, SYSTEM_ENV);
  }

  /** As {@link #parse(Path)}, with {@code ${NAME}} looked up in {@code env}. */
  public static RulesConfig parse(Path file, Function<String, String> env) throws ConfigException {
    String source = file.toString();
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw single(source, "the rules file does not exist");
    } catch (IOException e) {
      throw single(source, "the rules file cannot be read: " + e);
    }
    String text = utf8(bytes);
    if (text == null) {
      throw single(source, "the rules file is not valid UTF-8 text");
    }
    return parse(text, source, env);
  }

  /**
   * The text of {@code bytes} in UTF-8, or null when they are not valid UTF-8. The String
   * constructor decodes without a char buffer in between (an ASCII file is copied as it is: 2 MB
   * less for a file of 10,000 rules), but puts U+FFFD for what it cannot decode: a text without
   * U+FFFD was valid, and only one with it is decoded again by a decoder that says whether it was.
   */
  private static String utf8(byte[] bytes) {
    String text = new String(bytes, StandardCharsets.UTF_8);
    if (text.indexOf('\uFFFD') < 0) {
      return text;
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /**
   * The problems the parser finds in a rules file, in file order, each printable as {@code <file>:
   * line N, column M: <message>}; empty when it finds none. {@code tollgate-agent.jar validate FILE}
   * also builds the rules as the agent does ({@code RuleSetFactory.forOneBuild}).
   */
  public static List<ConfigProblem> validate(Path file, Function<String, String> env) {
    try {
      parse(file, env);
      return Collections.emptyList();
    } catch (ConfigException e) {
      return e.problems();
    }
  }

  /** Validates rules given as text; {@code sourceName} names them in problems. */
  public static RulesConfig parse(String yaml, String sourceName) throws ConfigException {
    return parse(yaml, sourceName, SYSTEM_ENV);
  }

  /** As {@link #parse(String, String)}, with {@code ${NAME}} looked up in {@code env}. */
  public static RulesConfig parse(String yaml, String sourceName, Function<String, String> env)
      throws ConfigException {
    YamlNodes y =
        new YamlNodes(sourceName == null ? "<rules>" : sourceName, env == null ? SYSTEM_ENV : env);
    RulesConfig config = read(y, yaml == null ? "" : yaml);
    if (!y.problems().isEmpty()) {
      List<ConfigProblem> sorted = new ArrayList<>(y.problems());
      sorted.sort(
          Comparator.comparingInt(ConfigProblem::line).thenComparingInt(ConfigProblem::column));
      throw new ConfigException(sorted);
    }
    return config;
  }

  /**
   * A {@code rules:} with no value (nothing under it, {@code ~}, {@code null}) is refused, as an
   * empty file is by a running agent: it is what a file caught half-written reads as, or a
   * deployment that lost its list, more often than a wish to lift every limit (once it logged
   * {@code reloaded 0 rules} and every request passed). Only {@code rules: []} says "no rules".
   * A file without the key at all (settings only, or empty) stays 0 rules, as it always was.
   */
  private static void refuseEmptyRules(YamlNodes y, NodeTuple rules) {
    if (rules != null && isNull(rules.getValueNode())) {
      y.problem(rules.getKeyNode(), "'rules:' is empty; a file cut short reads this way, so it is"
          + " not applied; list the rules under it, or write 'rules: []' to have none on purpose");
    }
  }

  private static ConfigException single(String source, String message) {
    return new ConfigException(
        Collections.singletonList(new ConfigProblem(source, 0, 0, message)));
  }

  /** The settings of the file's text, with every problem added to {@code y}; null when unreadable. */
  private static RulesConfig read(YamlNodes y, String text) {
    String source = y.source();
    Node root;
    try {
      LoaderOptions options = new LoaderOptions();
      options.setAllowDuplicateKeys(true); // we report duplicates ourselves, with both lines
      options.setMaxAliasesForCollections(50);
      options.setAllowRecursiveKeys(false);
      // What Yaml.compose does, without creating a Yaml: its constructor and representer are
      // never used here, and their classes initialize java.util.logging (SnakeYAML's
      // TypeDescription has a JUL logger), which an agent must leave to the application.
      NullAndMergeResolver resolver = new NullAndMergeResolver();
      // The plain subset that long files are written in, read in one pass; anything else, and
      // every error, is SnakeYAML's, as always.
      root = PlainBlockYaml.read(text, resolver, options.getCodePointLimit());
      if (root == null) {
        root = new Composer(new ParserImpl(new StreamReader(new StringReader(text)), options),
                resolver, options)
            .getSingleNode();
      }
    } catch (MarkedYAMLException e) {
      y.syntaxProblem(e);
      return null;
    } catch (YAMLException e) {
      y.problems().add(new ConfigProblem(source, 0, 0, "invalid YAML: " + e.getMessage()));
      return null;
    }
    if (root == null || isNull(root)) {
      return new RulesConfig(source, null, null, null, null, null, Collections.emptyList(), null);
    }
    if (!(root instanceof MappingNode)) {
      y.problem(
          root,
          "the rules file must be a mapping of settings such as 'backend:' and 'rules:', got "
              + describe(root));
      return null;
    }
    Map<String, Integer> lines = new HashMap<>();
    Map<String, NodeTuple> top = y.fields((MappingNode) root, TOP_LEVEL_KEYS, "at the top level", "");
    y.recordLines(top, "", lines);

    Backend backend = y.enumValue(top.get("backend"), "backend", Backend.values(), "");
    HeadersMode headers = y.enumValue(top.get("headers"), "headers", HeadersMode.values(), "");
    Mode mode = y.enumValue(top.get("mode"), "mode", Mode.values(), "");

    RedisSettings redis = null;
    NodeTuple redisTuple = top.get("redis");
    NodeTuple backendTuple = top.get("backend");
    if (redisTuple != null) {
      if (backend != Backend.REDIS && !(backendTuple != null && backend == null)) {
        y.problem(
            redisTuple.getKeyNode(),
            "a 'redis' section is given but backend is "
                + (backendTuple == null ? "not set (so local)" : "'local'")
                + "; add 'backend: redis' or remove the redis section");
      }
      redis = new RedisSectionParser(y).parse(redisTuple, backend == Backend.REDIS, lines);
    } else if (backend == Backend.REDIS) {
      y.problem(
          backendTuple.getValueNode(),
          "backend is 'redis' but there is no 'redis' section; add one with 'uri:' (or 'cluster:')");
    }

    ClientIpSettings clientIp = new ClientIpSectionParser(y).parse(top.get("client-ip"), lines);

    AllowConfig topAllow = AllowConfig.NONE;
    NodeTuple topAllowTuple = top.get("allow");
    if (topAllowTuple != null) {
      AllowConfig a = new AllowParser(y).parse(topAllowTuple.getValueNode(), "", false);
      if (a != null) {
        topAllow = a;
      }
    }
    ResponseConfig response = ResponseConfig.NONE;
    if (top.get("response") != null) {
      ResponseConfig r = new ResponseParser(y).parse(top.get("response"), "");
      if (r != null) {
        response = r;
      }
    }
    refuseEmptyRules(y, top.get("rules"));
    List<RuleConfig> rules = new RuleParser(y).parse(top.get("rules"), topAllow);
    List<OutboundRuleConfig> outbound =
        new OutboundParser(y).parse(top.get("outbound"), backend == null ? Backend.LOCAL : backend);
    return new RulesConfig(source, backend, redis, clientIp, headers, mode, rules, lines, response)
        .withOutbound(outbound);
  }

}
