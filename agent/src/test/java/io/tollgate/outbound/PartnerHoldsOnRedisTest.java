package io.tollgate.outbound;

import static io.tollgate.testing.Conditions.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.diagnostics.metrics.OutboundMetrics;
import io.tollgate.engine.RulesHolder;
import io.tollgate.limiters.Clock;
import io.tollgate.rules.RuleSetFactory;
import io.tollgate.stores.redis.RedisKeys;
import io.tollgate.testing.redis.PrivateRedis;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A partner's wait learnt by one instance holds every instance's calls when the outbound rule
 * counts on Redis: two agents (two rules holders, each with its own Redis client) on one real Redis.
 * The wait is written in the background; the other instance finds it in the call that decides its
 * budget, and then holds the key on its own.
 */
@ExtendWith(RedisServerExtension.class)
class PartnerHoldsOnRedisTest {

  @TempDir Path dir;

  /** A rule name of its own per test: the counters are the JVM's, the keys Redis's. */
  private final String name = "hold-" + UUID.randomUUID().toString().substring(0, 8);
  private final RulesHolder[] instances = new RulesHolder[2];
  private Path file;

  private void start(RedisServer redis, String... ruleLines) throws Exception {
    StringBuilder yaml = new StringBuilder("backend: redis\nredis:\n  uri: " + redis.uri()
        + "\n  timeout: 2s\nrules: []\noutbound:\n  - name: " + name + "\n"
        + "    match:\n      hosts: \"*.partner.example\"\n");
    for (String line : ruleLines) {
      yaml.append("    ").append(line).append('\n');
    }
    file = Files.write(dir.resolve("rules.yaml"), yaml.toString().getBytes(StandardCharsets.UTF_8));
    for (int i = 0; i < instances.length; i++) {
      instances[i] = new RulesHolder(new RuleSetFactory(Clock.system()));
      assertTrue(instances[i].useFile(file.toString()));
    }
  }

  @AfterEach
  void backToLocal() throws Exception {
    if (file == null) {
      return;
    }
    // Back to local: each instance's redis client is closed once its decisions have drained.
    Files.write(file, "rules: []\n".getBytes(StandardCharsets.UTF_8));
    for (RulesHolder holder : instances) {
      holder.reloadIfChanged();
    }
  }

  private OutboundLimiter instance(int i) {
    return instances[i].outbound();
  }

  private static OutboundGateTest.Call call(String tenant) {
    return OutboundGateTest.get("api.partner.example").with("X-Tenant", tenant);
  }

  private boolean holdIsOnRedis(RedisServer redis, String key) {
    return Long.valueOf(1).equals(
        redis.call("EXISTS", RedisKeys.partnerHoldKey(OutboundRules.STORE_PREFIX + name, key)));
  }

  @Test
  void aPartners429LearntByOneInstanceHoldsThatKeysCallsOnEveryInstance(RedisServer redis)
      throws Exception {
    start(redis, "key: header:X-Tenant", "limit: 1000", "period: 1s", "on-limit: fail");
    assertTrue(instance(0).beforeSend(call("a")).send());
    instance(0).afterResponse(call("a"), 429, headers("Retry-After", "30"));
    awaitTrue(() -> holdIsOnRedis(redis, "a"), "the wait is written to redis");

    // instance, tenant, sent, the rule's Retry-After at least (s)
    Object[][] cases = {
        {0, "a", false, 29L}, // the instance that learnt it, from its own hold
        {1, "a", false, 29L}, // the other, from redis, in the call that decides its budget
        {1, "a", false, 29L}, // and then from its own hold, without asking redis
        {1, "b", true, 0L}, // another key of the rule is not held
    };
    for (Object[] c : cases) {
      OutboundDecision decision = instance((Integer) c[0]).beforeSend(call((String) c[1]));
      String what = "instance " + c[0] + ", tenant " + c[1] + ": " + decision;
      assertEquals(c[2], decision.send(), what);
      assertTrue(decision.retryAfterSeconds() >= (Long) c[3]
          && decision.retryAfterSeconds() <= 30, what);
    }
    assertEquals(1, OutboundMetrics.forRule(name).getPartner429s(), "one 429, seen by one");

    List<PartnerHold> seen = ((OutboundGate) instance(1)).states().get(0).holds;
    assertEquals(1, seen.size(), "the other instance holds tenant a");
    assertEquals("a", seen.get(0).key);
    assertFalse(seen.get(0).learntHere, "it learnt it from redis");
    assertTrue(seen.get(0).answer.startsWith("api.partner.example:443 answered 429 with"
        + " Retry-After, asking to wait 30s"), seen.get(0).answer);
    List<PartnerHold> learnt = ((OutboundGate) instance(0)).states().get(0).holds;
    assertTrue(learnt.get(0).learntHere, "the first instance learnt it from the partner");
  }

  @Test
  void aWaitAskedByRateLimitHeadersIsSharedToo(RedisServer redis) throws Exception {
    start(redis, "limit: 1000", "period: 1s", "on-limit: fail");
    instance(0).afterResponse(call("a"), 200, headers("RateLimit", "\"default\";r=0;t=20"));
    awaitTrue(() -> holdIsOnRedis(redis, ""), "the wait is written to redis");
    OutboundDecision decision = instance(1).beforeSend(call("a"));
    assertFalse(decision.send(), decision.toString());
    assertTrue(decision.retryAfterSeconds() >= 19 && decision.retryAfterSeconds() <= 20,
        decision.toString());
  }

  @Test
  void aRuleOnTheLocalBackendInAFileOnRedisSharesNoWait(RedisServer redis) throws Exception {
    start(redis, "limit: 1000", "period: 1s", "on-limit: fail", "backend: local");
    instance(0).afterResponse(call("a"), 429, headers("Retry-After", "30"));
    assertFalse(instance(0).beforeSend(call("a")).send(), "the instance that learnt it holds");
    assertTrue(instance(1).beforeSend(call("a")).send(), "the other knows nothing of it");
    assertFalse(holdIsOnRedis(redis, ""), "nothing was written");
  }

  @Test
  void aLaterWaitLearntByAnotherInstanceExtendsTheSharedHold(RedisServer redis) throws Exception {
    start(redis, "limit: 1000", "period: 1s", "on-limit: fail");
    String holdKey = RedisKeys.partnerHoldKey(OutboundRules.STORE_PREFIX + name, "");
    instance(0).afterResponse(call("a"), 429, headers("Retry-After", "5"));
    awaitTrue(() -> holdIsOnRedis(redis, ""), "the wait is written to redis");
    instance(1).afterResponse(call("a"), 503, headers("Retry-After", "40"));
    awaitTrue(() -> {
      Object ttl = redis.call("PTTL", holdKey);
      return ttl instanceof Long && (Long) ttl > 30_000;
    }, "the later end holds on redis");
    instance(0).afterResponse(call("a"), 429, headers("Retry-After", "5"));
    OutboundDecision decision = instance(1).beforeSend(call("a"));
    assertFalse(decision.send(), decision.toString());
    assertTrue(decision.retryAfterSeconds() > 30, decision.toString());
  }

  @Test
  void withRedisDownTheInstanceThatLearntTheWaitHoldsItAndTheOthersApplyTheirOnFailure(
      @PrivateRedis RedisServer redis) throws Exception {
    start(redis, "limit: 1000", "period: 1s", "on-limit: fail", "on-failure: allow");
    assertTrue(instance(1).beforeSend(call("a")).send(), "redis answers");
    redis.kill();
    instance(0).afterResponse(call("a"), 429, headers("Retry-After", "30"));
    OutboundDecision learnt = instance(0).beforeSend(call("a"));
    assertFalse(learnt.send(), "the instance that learnt it holds its calls: " + learnt);
    assertTrue(learnt.retryAfterSeconds() >= 29, learnt.toString());
    assertTrue(instance(1).beforeSend(call("a")).send(),
        "the other cannot know of it: its rule's on-failure (allow) decides");
  }

  private static Function<String, String> headers(String name, String value) {
    Map<String, String> map = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    map.put(name, value);
    return map::get;
  }
}
