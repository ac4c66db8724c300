package io.tollgate.agent;

import io.tollgate.config.Durations;
import io.tollgate.config.Suggestions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The agent's settings, from {@code -javaagent:tollgate-agent.jar=config=rules.yaml,debug=true}
 * (or the options of {@code attach}) first, then {@code -Dtollgate.NAME}, then the environment
 * variable {@code TOLLGATE_NAME}: the same precedence as the OpenTelemetry agent.
 *
 * <p>One parser and one check for every option, wherever it comes from: a mistyped option name or
 * a value the option cannot take is a {@linkplain #problems() problem} naming it (with a "did you
 * mean" for a near miss), never silently dropped, and the option keeps its default. A typo must
 * not quietly switch limiting off: {@code conifg=rules.yaml} once left the agent running with no
 * rules, saying only that none were given.
 */
public final class AgentArguments {

  /** What an option's value must be. */
  private enum Kind {
    PATH("a path"),
    BOOLEAN("true or false"),
    PORT("a port number (0-65535)"),
    TEXT("a value"),
    DURATION("a duration such as 60s (a whole number and ns, us, ms, s, m, h or d), or 0"),
    LINES_PER_MINUTE("a number of lines per rule per minute, or off");

    final String expected;

    Kind(String expected) {
      this.expected = expected;
    }
  }

  private static final Map<String, Kind> OPTIONS = new LinkedHashMap<>();

  static {
    OPTIONS.put("config", Kind.PATH);
    OPTIONS.put("debug", Kind.BOOLEAN);
    OPTIONS.put("log-file", Kind.PATH);
    OPTIONS.put("metrics-port", Kind.PORT);
    OPTIONS.put("metrics-host", Kind.TEXT);
    OPTIONS.put("entry-point-warning-after", Kind.DURATION);
    OPTIONS.put("custom-log-manager", Kind.BOOLEAN);
    OPTIONS.put("fail-on-error", Kind.BOOLEAN);
    OPTIONS.put("refusal-log", Kind.LINES_PER_MINUTE);
  }

  /**
   * Every setting the agent reads: others are problems, and a second attach applies only
   * {@link #APPLIED_AGAIN}.
   */
  public static final List<String> NAMES = List.copyOf(OPTIONS.keySet());

  /**
   * Where the agent writes the outcome of an attach ({@link AttachReport}): the attach command
   * adds it, people do not. Not a setting: no property or variable gives it, and it is not listed.
   */
  public static final String ATTACH_REPORT = "attach-report";

  /**
   * Where the agent already running writes a {@code StatusReport} for the {@code status} command,
   * which adds it: an attach that names it changes nothing, and starts no agent where none runs.
   * Not a setting, as {@link #ATTACH_REPORT}. The bootstrap tier knows it by this text too.
   */
  public static final String STATUS_REPORT = "status-report";

  static {
    OPTIONS.put(ATTACH_REPORT, Kind.PATH);
    OPTIONS.put(STATUS_REPORT, Kind.PATH);
  }

  /** The settings a second attach applies (those it names); the others stay as the first start set them. */
  public static final List<String> APPLIED_AGAIN = List.of("config", "debug", "refusal-log");

  private static final String PROPERTY_PREFIX = "tollgate.";
  private static final String VARIABLE_PREFIX = "TOLLGATE_";

  /**
   * System properties under {@code tollgate.} that the agent reads but that are not options: JMX
   * off, and Redis decisions batched ({@code RedisBackend}: off unless {@code
   * -Dtollgate.redis.batch=true}) with its window.
   */
  private static final List<String> OTHER_PROPERTIES = List.of(
      "tollgate.jmx.disabled", "tollgate.redis.batch", "tollgate.redis.batch.window");

  /** The options the argument string gave, each with a value it may take. */
  private final Map<String, String> arguments;
  private final List<String> problems;

  private AgentArguments(Map<String, String> arguments, List<String> problems) {
    this.arguments = arguments;
    this.problems = problems;
  }

  /**
   * Parses {@code key=value,key=value}, as {@code -javaagent:tollgate-agent.jar=...} and the
   * attach command pass them; see {@link #parse(List)}.
   */
  public static AgentArguments parse(String text) {
    if (text == null || text.trim().isEmpty()) {
      return parse(Collections.<String>emptyList());
    }
    return parse(Arrays.asList(text.split(",")));
  }

  /**
   * Parses options one by one: {@code key=value}; a bare boolean option's name means
   * {@code name=true}; any other bare word is the rules file ({@code config=}), as people write
   * {@code -javaagent:tollgate-agent.jar=rules.yaml}. Then checks the values that system
   * properties and environment variables give the same options.
   */
  public static AgentArguments parse(List<String> items) {
    Map<String, String> values = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    for (String item : items) {
      String trimmed = item.trim();
      if (trimmed.isEmpty()) {
        continue;
      }
      int eq = trimmed.indexOf('=');
      String name;
      String value;
      if (eq < 0) {
        Kind kind = OPTIONS.get(trimmed);
        if (kind == Kind.BOOLEAN) {
          name = trimmed;
          value = "true";
        } else if (kind != null) {
          problems.add("option '" + trimmed + "' needs a value: " + trimmed + "=VALUE ("
              + kind.expected + ")");
          continue;
        } else if (looksLikeAMistypedOption(trimmed)) {
          problems.add(unknown(trimmed, trimmed));
          continue;
        } else {
          name = "config";
          value = trimmed;
        }
      } else {
        name = trimmed.substring(0, eq).trim();
        value = trimmed.substring(eq + 1).trim();
        if (!OPTIONS.containsKey(name)) {
          problems.add(unknown(name, trimmed));
          continue;
        }
      }
      String problem = check(name, value);
      if (problem != null) {
        problems.add("option " + name + "=" + value + ": " + problem);
      } else if (values.containsKey(name) && !values.get(name).equals(value)) {
        problems.add("option '" + name + "' is given twice ('" + values.get(name) + "' and '"
            + value + "'); the first is used");
      } else {
        values.putIfAbsent(name, value);
      }
    }
    for (String name : NAMES) {
      if (values.containsKey(name)) {
        continue;
      }
      String property = System.getProperty(PROPERTY_PREFIX + name);
      if (property != null && check(name, property.trim()) != null) {
        problems.add("-Dtollgate." + name + "=" + property + ": " + check(name, property.trim()));
      }
      String variable = System.getenv(environmentName(name));
      if (property == null && variable != null && check(name, variable.trim()) != null) {
        problems.add(environmentName(name) + "=" + variable + ": " + check(name, variable.trim()));
      }
    }
    unknownProperties(System.getProperties().stringPropertyNames(), problems);
    unknownVariables(System.getenv().keySet(), problems);
    return new AgentArguments(values, Collections.unmodifiableList(problems));
  }

  /**
   * Properties under {@code tollgate.} that name no option: {@code -Dtollgate.confg=rules.yaml}
   * would otherwise leave the agent with no rules and no word of why. The agent's own switches
   * for tests ({@code tollgate.test.*}) and {@link #OTHER_PROPERTIES} are not options.
   */
  static void unknownProperties(Iterable<String> propertyNames, List<String> problems) {
    for (String property : propertyNames) {
      if (!property.startsWith(PROPERTY_PREFIX)
          || property.startsWith(PROPERTY_PREFIX + "test.")
          || OTHER_PROPERTIES.contains(property)) {
        continue;
      }
      String name = property.substring(PROPERTY_PREFIX.length());
      if (!NAMES.contains(name)) {
        String hint = closest(name);
        problems.add("unknown system property -D" + property
            + (hint != null ? "; did you mean -D" + PROPERTY_PREFIX + hint + "?" : ".")
            + " The agent reads -D" + PROPERTY_PREFIX + "NAME for NAME one of "
            + String.join(", ", NAMES) + ".");
      }
    }
  }

  /** Environment variables {@code TOLLGATE_...} that name no option, as {@link #unknownProperties}. */
  static void unknownVariables(Iterable<String> variableNames, List<String> problems) {
    for (String variable : variableNames) {
      if (!variable.startsWith(VARIABLE_PREFIX)) {
        continue;
      }
      String name = variable.substring(VARIABLE_PREFIX.length())
          .toLowerCase(Locale.ROOT).replace('_', '-');
      if (!NAMES.contains(name)) {
        String hint = closest(name);
        problems.add("unknown environment variable " + variable
            + (hint != null ? "; did you mean " + environmentName(hint) + "?" : ".")
            + " The agent reads " + VARIABLE_PREFIX + "NAME for NAME one of "
            + String.join(", ", NAMES) + " (upper case, '_' for '-').");
      }
    }
  }

  /**
   * Unknown and malformed options, each a sentence naming it; empty when all is well. The agent
   * logs each as an ERROR, the attach command refuses to attach.
   */
  public List<String> problems() {
    return problems;
  }

  /** The setting {@code name} (such as {@code config} or {@code log-file}), or null. */
  public String get(String name) {
    String value = arguments.get(name);
    if (value != null) {
      return value;
    }
    // A malformed property or variable is a problem already; it is not used.
    value = System.getProperty(PROPERTY_PREFIX + name);
    if (value != null) {
      return check(name, value.trim()) == null ? value.trim() : null;
    }
    value = System.getenv(environmentName(name));
    return value != null && check(name, value.trim()) == null ? value.trim() : null;
  }

  /** Whether the options themselves set {@code name} (not a property or the environment). */
  public boolean given(String name) {
    return arguments.containsKey(name);
  }

  /** The options themselves, in order: what the attach command sends to the JVM. */
  public Map<String, String> givenOptions() {
    return Collections.unmodifiableMap(arguments);
  }

  public boolean isTrue(String name) {
    return "true".equalsIgnoreCase(get(name));
  }

  /**
   * The refusal log's lines per rule per minute ({@code refusal-log=N}, {@code off} is 0), or
   * {@code fallback} when not set.
   */
  public int linesPerMinute(String name, int fallback) {
    String value = get(name);
    if (value == null) {
      return fallback;
    }
    return value.equalsIgnoreCase("off") ? 0 : Integer.parseInt(value);
  }

  private static String environmentName(String name) {
    return VARIABLE_PREFIX + name.toUpperCase(Locale.ROOT).replace('-', '_');
  }

  /** Why {@code value} is not one option {@code name} can take, or null when it is. */
  private static String check(String name, String value) {
    Kind kind = OPTIONS.get(name);
    boolean valid;
    switch (kind) {
      case BOOLEAN:
        valid = value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false");
        break;
      case PORT:
        valid = isNumberAtMost(value, 65_535);
        break;
      case DURATION:
        valid = value.equals("0") || isDuration(value);
        break;
      case LINES_PER_MINUTE:
        valid = value.equalsIgnoreCase("off") || isNumberAtMost(value, 1_000_000);
        break;
      default:
        valid = !value.isEmpty();
    }
    return valid ? null : "expected " + kind.expected
        + (value.isEmpty() ? ", got nothing" : ", got '" + value + "'");
  }

  private static boolean isNumberAtMost(String value, int max) {
    if (value.isEmpty() || value.length() > 9) {
      return false;
    }
    for (int i = 0; i < value.length(); i++) {
      if (value.charAt(i) < '0' || value.charAt(i) > '9') {
        return false;
      }
    }
    return Integer.parseInt(value) <= max;
  }

  private static boolean isDuration(String value) {
    try {
      Durations.parseNanos(value);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * A bare word is the rules file unless it reads as an option's name mistyped ({@code debgu}):
   * a word without a path's dot or slash, close to a name. Taking it for a file would only say
   * "cannot read the rules file /app/debgu", which hides the typo.
   */
  private static boolean looksLikeAMistypedOption(String word) {
    return word.indexOf('.') < 0 && word.indexOf('/') < 0 && word.indexOf('\\') < 0
        && closest(word) != null;
  }

  private static String unknown(String name, String item) {
    String hint = closest(name);
    return "unknown option '" + name + "'" + (item.equals(name) ? "" : " (in '" + item + "')")
        + (hint != null ? "; did you mean '" + hint + "'?" : ".")
        + " The options are " + String.join(", ", NAMES) + ".";
  }

  /** The option name nearest to {@code word} within a small edit distance, or null. */
  static String closest(String word) {
    return Suggestions.closest(word, NAMES);
  }
}
