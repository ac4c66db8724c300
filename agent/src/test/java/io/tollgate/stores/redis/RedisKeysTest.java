package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The key layout (v2): hash-tagged by rule and client, named by algorithm and budget. */
class RedisKeysTest {

  /** What a client key "1.2.3.4" becomes: SHA-256, 128 bits, base64url. */
  private static final String D = RedisKeys.digest("1.2.3.4");

  @ParameterizedTest(name = "{0} {1} plan=''{2}'' period=''{3}'' -> {4}")
  @CsvSource(
      delimiter = '|',
      value = {
        // rule        | algorithm      | plan | period | key, with D the client's digest
        "api           | token-bucket   |      |        | tollgate:v2:{api:D}:token-bucket",
        "api           | gcra           |      |        | tollgate:v2:{api:D}:gcra",
        "api           | fixed-window   |      | 1s     | tollgate:v2:{api:D}:fixed-window:1s",
        "api           | sliding-window |      | 1h     | tollgate:v2:{api:D}:sliding-window:1h",
        "api           | sliding-log    | pro  |        | tollgate:v2:{api:D}:sliding-log:pro",
        "api           | token-bucket   | pro  | 1m     | tollgate:v2:{api:D}:token-bucket:pro:1m",
        "login.per-ip  | concurrency    |      |        | tollgate:v2:{login.per-ip:D}:concurrency",
        "api           | calendar       |      |        | tollgate:v2:{api:D}:calendar",
      })
  void keyOfABudget(String rule, String algorithm, String plan, String period, String expected) {
    String key =
        RedisKeys.bucketKey(rule, algorithm, "1.2.3.4")
            + RedisKeys.budgetSuffix(plan == null ? "" : plan, period == null ? "" : period);
    assertEquals(expected.replace(":D}", ":" + D + "}"), key);
  }

  /** A store makes its keys' rule part once; they must be the very keys {@link RedisKeys} names. */
  @ParameterizedTest(name = "rule ''{0}'' budget plan=''{1}'' period=''{2}'' client ''{3}''")
  @CsvSource(
      delimiter = '|',
      value = {
        // rule                          | plan      | period | client key
        "api                             |           |        | 1.2.3.4",
        "api                             |           | 1s     | 1.2.3.4",
        "login.per-ip                    | gold plan | 1h     | Bearer eyJhbGciOiJIUzI1NiJ9",
        "rule with {braces} and spaces   |           |        | 1.2.3.4",
        "api                             |           |        | ''",
      })
  void aStoresKeysAreTheKeysOfTheLayout(String rule, String plan, String period, String client) {
    io.tollgate.limiters.RateLimitAlgorithm<?> bucket =
        new io.tollgate.limiters.TokenBucket(io.tollgate.limiters.LimitSpec.of(10, 1_000_000_000L));
    String budgetPlan = plan == null ? "" : plan;
    String budgetPeriod = period == null ? "" : period;
    RedisAlgorithmStore store = budgetPlan.isEmpty() && budgetPeriod.isEmpty()
        ? RedisAlgorithmStore.of(null, rule, bucket)
        : RedisAlgorithmStore.ofBudget(null, rule, rule + "/b", budgetPlan, budgetPeriod, bucket);
    String clientKey = client == null ? "" : client;
    for (int decision = 0; decision < 2; decision++) { // the same key every time
      assertEquals(
          RedisKeys.bucketKey(rule, "token-bucket", clientKey)
              + RedisKeys.budgetSuffix(budgetPlan, budgetPeriod),
          store.keyOf(clientKey));
    }
  }

  @Test
  void aChangedAlgorithmIsANewKey() {
    assertNotEquals(
        RedisKeys.bucketKey("api", "token-bucket", "k"),
        RedisKeys.bucketKey("api", "fixed-window", "k"));
  }

  @Test
  void everyKeyOfARuleAndClientHasOneHashTag() {
    String tag = "{api:" + RedisKeys.digest("k") + "}";
    for (String key :
        Arrays.asList(
            RedisKeys.bucketKey("api", "gcra", "k"),
            RedisKeys.bucketKey("api", "gcra", "k") + RedisKeys.budgetSuffix("", "1s"),
            RedisKeys.bucketKey("api", "gcra", "k") + RedisKeys.budgetSuffix("gold plan", "1h"),
            RedisKeys.penaltyKey("api", "k"))) {
      assertEquals(1, key.chars().filter(c -> c == '{').count(), key);
      assertTrue(key.contains(tag), key);
    }
    assertEquals("tollgate:v2:" + tag + ":penalty", RedisKeys.penaltyKey("api", "k"));
  }

  @Test
  void keysAreShortAndHoldNoRawClientValue() {
    String secret = "Bearer eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXRva2Vu.sig";
    String key = RedisKeys.bucketKey("login-per-ip", "gcra", secret);
    assertFalse(key.contains("eyJ"), key);
    assertEquals(key, RedisKeys.bucketKey("login-per-ip", "gcra", secret), "stable");
    assertNotEquals(key, RedisKeys.bucketKey("login-per-ip", "gcra", secret + "x"));

    char[] huge = new char[100_000];
    Arrays.fill(huge, 'a');
    assertTrue(RedisKeys.bucketKey("r", "gcra", new String(huge)).length() < 64);

    String odd = RedisKeys.bucketKey("rule with {braces} and spaces", "gcra", "1.2.3.4");
    assertEquals(1, odd.chars().filter(c -> c == '{').count(), "one hash tag: " + odd);
    assertTrue(odd.startsWith("tollgate:v2:{h"), odd);
    String oddPlan = RedisKeys.budgetSuffix("plan {x}", "");
    assertFalse(oddPlan.contains("{"), oddPlan);
    assertTrue(RedisKeys.instancesKey("default").startsWith("tollgate:instances:{default}"));
  }
}
