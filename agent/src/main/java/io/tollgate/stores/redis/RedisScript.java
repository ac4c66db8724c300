package io.tollgate.stores.redis;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** A Lua script shipped with the agent, with its SHA-1 for {@code EVALSHA}. */
public final class RedisScript {

  /** The token bucket's and gcra's ({@link RedisGcraStore}). */
  public static final RedisScript GCRA = overBudgets("gcra.lua");
  public static final RedisScript FIXED_WINDOW = overBudgets("fixed-window.lua");
  public static final RedisScript SLIDING_WINDOW = overBudgets("sliding-window.lua");
  public static final RedisScript SLIDING_LOG = overBudgets("sliding-log.lua");
  public static final RedisScript CONCURRENCY = overBudgets("concurrency.lua");
  public static final RedisScript CALENDAR = overBudgets("calendar.lua");
  public static final RedisScript PENALTY_BOX = withCommonHead("penalty-box.lua");
  public static final RedisScript INSTANCES = load("instances.lua");
  /** An outbound rule's partner hold ({@link RedisPartnerHolds}). */
  public static final RedisScript PARTNER_HOLD = withCommonHead("partner-hold.lua");

  private final String name;
  private final String body;
  private final String sha1;

  RedisScript(String name, String body) {
    this.name = name;
    this.body = body;
    this.sha1 = sha1Hex(body);
  }

  /** An algorithm's script with {@code common.lua} (the clock, exact integer helpers) before it. */
  static RedisScript withCommonHead(String name) {
    RedisScript head = load("common.lua");
    RedisScript script = load(name);
    return new RedisScript(name, head.body() + "\n" + script.body());
  }

  /**
   * An algorithm's script run over all of a rule's budgets in one call: {@code common.lua}, then the
   * script made the function of one budget ({@code decide_budget(KEYS, ARGV)}, which reads its
   * KEYS and ARGV as when it ran alone), then {@code budgets.lua}, which calls it for each budget.
   */
  static RedisScript overBudgets(String name) {
    return new RedisScript(name, withBudgetFunction(name) + load("budgets.lua").body());
  }

  /**
   * An algorithm's script over all of a rule's budgets, several decisions in one call: {@link
   * #overBudgets}' parts with {@code budgets.lua} made the function of one decision ({@code
   * decide_rule(KEYS, ARGV)}), then {@code batch.lua}, which calls it for each ({@link
   * RedisBatcher}, which holds the one it sends).
   */
  static RedisScript batchOverBudgets(String name) {
    return new RedisScript(name + "+batch", withBudgetFunction(name)
        + "local function decide_rule(KEYS, ARGV)\n" + load("budgets.lua").body() + "\nend\n"
        + load("batch.lua").body());
  }

  /** {@code common.lua}, then the script {@code name} made {@code decide_budget(KEYS, ARGV)}. */
  private static String withBudgetFunction(String name) {
    return load("common.lua").body() + "\nlocal function decide_budget(KEYS, ARGV)\n"
        + load(name).body() + "\nend\n";
  }

  /** Loads {@code io/tollgate/stores/redis/NAME} from the agent's resources. */
  static RedisScript load(String name) {
    try (InputStream in = RedisScript.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource io/tollgate/stores/redis/" + name);
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      for (int n; (n = in.read(buffer)) > 0; ) {
        out.write(buffer, 0, n);
      }
      return new RedisScript(name, new String(out.toByteArray(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read io/tollgate/stores/redis/" + name, e);
    }
  }

  public String name() {
    return name;
  }

  public String body() {
    return body;
  }

  /** Lower-case hex SHA-1 of the body, as Redis names the script. */
  public String sha1() {
    return sha1;
  }

  private static String sha1Hex(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
      StringBuilder hex = new StringBuilder(40);
      for (byte b : digest) {
        hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
      }
      return hex.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is not available", e);
    }
  }
}
