package io.tollgate.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A whole validated rules file. Immutable. */
public final class RulesConfig {
  private final String source;
  private final Backend backend;
  private final RedisSettings redis;
  private final ClientIpSettings clientIp;
  private final HeadersMode headers;
  private final Mode mode;
  private final List<RuleConfig> rules;
  private final Map<String, Integer> keyLines;
  private final ResponseConfig response;
  /** The {@code outbound:} rules, set by {@link #withOutbound} once the file's other parts are read. */
  private List<OutboundRuleConfig> outbound = Collections.emptyList();

  public RulesConfig(
      String source,
      Backend backend,
      RedisSettings redis,
      ClientIpSettings clientIp,
      HeadersMode headers,
      Mode mode,
      List<RuleConfig> rules,
      Map<String, Integer> keyLines) {
    this(source, backend, redis, clientIp, headers, mode, rules, keyLines, ResponseConfig.NONE);
  }

  /** As above, with the file's top-level {@code response}. */
  public RulesConfig(
      String source,
      Backend backend,
      RedisSettings redis,
      ClientIpSettings clientIp,
      HeadersMode headers,
      Mode mode,
      List<RuleConfig> rules,
      Map<String, Integer> keyLines,
      ResponseConfig response) {
    this.response = response == null ? ResponseConfig.NONE : response;
    this.source = source;
    this.backend = backend == null ? Backend.LOCAL : backend;
    this.redis = redis;
    this.clientIp = clientIp == null ? ClientIpSettings.DEFAULTS : clientIp;
    this.headers = headers == null ? HeadersMode.DRAFT : headers;
    this.mode = mode == null ? Mode.ENFORCE : mode;
    this.rules = Collections.unmodifiableList(new ArrayList<>(rules));
    this.keyLines =
        keyLines == null
            ? Collections.<String, Integer>emptyMap()
            : Collections.unmodifiableMap(new HashMap<>(keyLines));
  }

  /** Where the rules came from: the file path as given, or the name passed to the parser. */
  public String source() {
    return source;
  }

  /** {@code backend}; default local. */
  public Backend backend() {
    return backend;
  }

  /** The {@code redis} section; null unless given (and then the backend is redis). */
  public RedisSettings redis() {
    return redis;
  }

  /** The {@code client-ip} section, with defaults when not given. */
  public ClientIpSettings clientIp() {
    return clientIp;
  }

  /** {@code headers}; default draft. */
  public HeadersMode headers() {
    return headers;
  }

  /** The global {@code mode}; default enforce. */
  public Mode mode() {
    return mode;
  }

  /** The top-level {@code response}; {@link ResponseConfig#NONE} when not given. */
  public ResponseConfig response() {
    return response;
  }

  /** The rules in file order; may be empty. */
  public List<RuleConfig> rules() {
    return rules;
  }

  /** The {@code outbound:} rules (limits on the app's own calls) in file order; may be empty. */
  public List<OutboundRuleConfig> outbound() {
    return outbound;
  }

  /** This file with {@code outbound} as its outbound rules. */
  public RulesConfig withOutbound(List<OutboundRuleConfig> outbound) {
    RulesConfig copy =
        new RulesConfig(source, backend, redis, clientIp, headers, mode, rules, keyLines, response);
    copy.outbound = Collections.unmodifiableList(new ArrayList<>(outbound));
    return copy;
  }

  /** The rule with this name, or null. */
  public RuleConfig rule(String name) {
    for (RuleConfig r : rules) {
      if (r.name().equals(name)) {
        return r;
      }
    }
    return null;
  }

  /**
   * The line of a top-level key such as {@code "rules"} (also nested ones such as {@code
   * "redis.uri"}), or 0 when it was not written.
   */
  public int lineOf(String topLevelKey) {
    Integer l = keyLines.get(topLevelKey);
    return l == null ? 0 : l;
  }

  @Override
  public String toString() {
    return "RulesConfig{source="
        + source
        + ", backend="
        + backend.yamlName()
        + (redis != null ? ", redis=" + redis : "")
        + ", clientIp="
        + clientIp
        + ", headers="
        + headers.yamlName()
        + ", mode="
        + mode.yamlName()
        + (response != ResponseConfig.NONE ? ", response=" + response : "")
        + ", rules="
        + rules
        + (outbound.isEmpty() ? "" : ", outbound=" + outbound)
        + "}";
  }
}
