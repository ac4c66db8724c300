package io.tollgate.stores.redis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * Redis key names, layout {@value #LAYOUT}:
 *
 * <pre>
 *   tollgate:v2:{RULE:DIGEST}:ALGORITHM             a rule of one limit
 *   tollgate:v2:{RULE:DIGEST}:ALGORITHM:BUDGET      each budget of a rule of several limits or plans
 *   tollgate:v2:{RULE:DIGEST}:penalty               the rule's penalty box
 *   tollgate:v2:{RULE:DIGEST}:partner-hold          an outbound rule's wait a partner asked
 *   tollgate:instances:{GROUP}                      the instances of one group (unversioned)
 * </pre>
 *
 * <p>The hash tag is the rule and the client's key, so all of one client's keys of one rule (its
 * budgets, its penalty box) are in one Cluster slot, where one script can decide them together,
 * and different clients spread over all shards. The algorithm's name ({@code token-bucket}, {@code
 * gcra}, {@code fixed-window}, {@code sliding-window}, {@code sliding-log}, {@code concurrency},
 * {@code calendar}) is part of the key because each keeps its own type of state (a hash of other
 * fields, a list, a sorted set): a rule whose algorithm changes starts on a new key, and the old
 * one expires by its TTL, where reusing it would answer {@code WRONGTYPE} or misread its fields.
 * The layout version ({@code v2}) does the same for a change of the layout itself; the keys of
 * version 1 ({@code tollgate:{RULE:DIGEST}}, no algorithm) are never read and expire on their own.
 * BUDGET is the plan's name (plain or hashed as RULE is) and/or the limit's period ({@code 1s},
 * {@code 1h}), joined by {@code :}.
 *
 * <p>The client's part of the key (an IP, a header value, an API key, a session cookie) is never
 * stored as is: it is replaced by its SHA-256, truncated to 128 bits and written in base64url (22
 * characters), so keys hold no raw secrets and stay short whatever a client sends. The rule name
 * is kept readable when it is short and plain ({@code [A-Za-z0-9._-]}, at most 64 characters), and
 * hashed the same way otherwise.
 *
 * <p>A truncated unsalted hash of a low-entropy value (a 6-digit code) can be reversed by trying
 * every value; it hides secrets from casual readers of Redis, not from a brute-force search.
 */
public final class RedisKeys {

  public static final String PREFIX = "tollgate:";
  /** The layout of the keys below; a new layout is a new version, so old keys are never misread. */
  public static final String LAYOUT = "v2";

  private static final String VERSIONED = PREFIX + LAYOUT + ":";

  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9._-]{1,64}");
  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();
  private static final ThreadLocal<MessageDigest> SHA256 =
      ThreadLocal.withInitial(
          () -> {
            try {
              return MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
              throw new IllegalStateException("SHA-256 is not available", e);
            }
          });

  private RedisKeys() {}

  /**
   * The hash-tagged part every key of one rule for one client starts with: {@code
   * tollgate:v2:{RULE:DIGEST}}.
   */
  public static String clientTag(String ruleName, String clientKey) {
    return clientTagHead(ruleName) + digest(clientKey) + "}";
  }

  /**
   * What {@link #clientTag} puts before the client's digest, {@code tollgate:v2:{RULE:}: the same
   * for every key of a rule, so a store makes it once rather than per decision.
   */
  static String clientTagHead(String ruleName) {
    return VERSIONED + "{" + ruleTag(ruleName) + ":";
  }

  /** The key of a one-limit rule's state for one client key: {@code tollgate:v2:{RULE:DIGEST}:ALGORITHM}. */
  public static String bucketKey(String ruleName, String algorithm, String clientKey) {
    return clientTag(ruleName, clientKey) + ":" + algorithm;
  }

  /**
   * What follows {@link #bucketKey} for one budget of a rule with several limits or plans: {@code
   * :PLAN}, {@code :PERIOD} or {@code :PLAN:PERIOD}; empty for a rule of one limit.
   *
   * @param plan the plan's name, or empty
   * @param period the limit's period as the rules file spells it ({@code 1s}), or empty
   */
  public static String budgetSuffix(String plan, String period) {
    StringBuilder suffix = new StringBuilder();
    if (!plan.isEmpty()) {
      suffix.append(':').append(ruleTag(plan));
    }
    if (!period.isEmpty()) {
      suffix.append(':').append(ruleTag(period));
    }
    return suffix.toString();
  }

  /**
   * The penalty box of one rule for one client key: in the same Cluster slot as the key's budgets
   * (the same hash tag), so a rule's keys for one client stay together.
   */
  public static String penaltyKey(String ruleName, String clientKey) {
    return clientTag(ruleName, clientKey) + ":penalty";
  }

  /**
   * The wait a partner asked of one outbound rule's client key ({@code partner-hold.lua}): in the
   * same Cluster slot as the key's budgets, so that the script deciding them reads it too.
   */
  public static String partnerHoldKey(String ruleName, String clientKey) {
    return clientTag(ruleName, clientKey) + ":partner-hold";
  }

  /** The sorted set where the instances of one group announce themselves. */
  public static String instancesKey(String group) {
    return PREFIX + "instances:{" + ruleTag(group) + "}";
  }

  static String ruleTag(String ruleName) {
    return PLAIN.matcher(ruleName).matches() ? ruleName : "h" + digest(ruleName);
  }

  /** SHA-256 of the UTF-8 bytes, first 16 bytes, base64url without padding: 22 characters. */
  public static String digest(String value) {
    MessageDigest sha = SHA256.get();
    sha.reset();
    byte[] hash = sha.digest(value.getBytes(StandardCharsets.UTF_8));
    return BASE64URL.encodeToString(Arrays.copyOf(hash, 16));
  }
}
