package io.tollgate.agent;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The agent's settings, from {@code -javaagent:tollgate-agent.jar=config=rules.yaml,debug=true}
 * first, then {@code -Dtollgate.NAME}, then the environment variable {@code TOLLGATE_NAME}: the
 * same precedence as the OpenTelemetry agent.
 */
public final class AgentArguments {

  /**
   * Every setting the agent reads: the {@code attach} command refuses others, and a second attach
   * applies only {@link #APPLIED_AGAIN}.
   */
  public static final List<String> NAMES = List.of("config", "debug", "log-file",
      "metrics-port", "metrics-host", "entry-point-warning-after", "custom-log-manager");

  /** The settings a second attach applies; the others stay as the first start set them. */
  public static final List<String> APPLIED_AGAIN = List.of("config", "debug");

  private final Map<String, String> arguments;

  private AgentArguments(Map<String, String> arguments) {
    this.arguments = arguments;
  }

  /** Parses {@code key=value,key=value}; a bare word means {@code word=true}. */
  public static AgentArguments parse(String text) {
    if (text == null || text.trim().isEmpty()) {
      return new AgentArguments(Collections.emptyMap());
    }
    Map<String, String> values = new LinkedHashMap<>();
    for (String item : text.split(",")) {
      String trimmed = item.trim();
      if (trimmed.isEmpty()) {
        continue;
      }
      int eq = trimmed.indexOf('=');
      if (eq < 0) {
        values.put(trimmed, "true");
      } else {
        values.put(trimmed.substring(0, eq).trim(), trimmed.substring(eq + 1).trim());
      }
    }
    return new AgentArguments(values);
  }

  /** The setting {@code name} (such as {@code config} or {@code log-file}), or null. */
  public String get(String name) {
    String value = arguments.get(name);
    if (value != null) {
      return value;
    }
    value = System.getProperty("tollgate." + name);
    if (value != null) {
      return value;
    }
    return System.getenv("TOLLGATE_" + name.toUpperCase(java.util.Locale.ROOT).replace('-', '_'));
  }

  /** Whether the argument string itself sets {@code name} (not a property or the environment). */
  public boolean given(String name) {
    return arguments.containsKey(name);
  }

  public boolean isTrue(String name) {
    return "true".equalsIgnoreCase(get(name));
  }
}
