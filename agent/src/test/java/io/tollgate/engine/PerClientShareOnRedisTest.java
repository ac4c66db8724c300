package io.tollgate.engine;

import static io.tollgate.testing.Conditions.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.limiters.Clock;
import io.tollgate.rules.RuleSetFactory;
import io.tollgate.stores.redis.FailurePolicyStore;
import io.tollgate.testing.redis.PrivateRedis;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code per-client} on {@code backend: redis}: every instance draws on one pool of permits, and
 * each counts its clients' shares in its own memory, so each shares out its part of the pool
 * ({@code limit / live instances}). One client spread over two instances holds half of a pool of 8
 * with {@code per-client: 50%}, not half in each instance (the whole pool, before). Real Redis,
 * two agents' rule sets on it, each with its own connection and instance registration.
 */
@ExtendWith(RedisServerExtension.class)
class PerClientShareOnRedisTest {

  @TempDir Path dir;

  @Test
  void aClientSpreadOverTheInstancesHoldsItsShareOfTheWholePool(@PrivateRedis RedisServer server)
      throws Exception {
    Path file = dir.resolve("rules.yaml");
    Files.write(file, ("backend: redis\n"
        + "redis:\n  uri: " + server.uri() + "\n"
        + "rules:\n"
        + "  - name: pool\n    match: { path: /login }\n    key: global\n"
        + "    algorithm: concurrency\n    limit: 8\n    period: 1m\n    per-client: 50%\n")
        .getBytes(StandardCharsets.UTF_8));
    RulesHolder first = new RulesHolder(new RuleSetFactory(Clock.system()));
    RulesHolder second = new RulesHolder(new RuleSetFactory(Clock.system()));
    assertTrue(first.useFile(file.toString()));
    assertTrue(second.useFile(file.toString()));
    awaitTrue(() -> instances(first) == 2 && instances(second) == 2,
        "each instance has counted the two");
    TollgateGate[] instances = {new TollgateGate(first), new TollgateGate(second)};

    List<RequestScope> held = new ArrayList<>();
    int admitted = 0;
    for (int i = 0; i < 8; i++) {
      RequestScope scope = instances[i % 2].outermostEntry(login("198.51.100.1"));
      if (scope != RequestScope.REFUSED) {
        admitted++;
        held.add(scope);
      }
    }

    assertEquals(4, admitted, "half of the pool of 8, over both instances: 2 in each");
    int others = 0;
    for (int i = 0; i < 4; i++) {
      RequestScope scope = instances[i % 2].outermostEntry(login("203.0.113." + (i + 1)));
      if (scope != RequestScope.REFUSED) {
        others++;
        held.add(scope);
      }
    }
    assertEquals(4, others, "the other half is left to the other clients");
    for (int i = 0; i < held.size(); i++) {
      instances[i % 2].requestEnded(held.get(i));
    }
  }

  private static int instances(RulesHolder holder) {
    return ((FailurePolicyStore) holder.current().get(0).store()).instances();
  }

  private static FakeExchange login(String address) {
    return new FakeExchange("POST", "/login").from(address);
  }
}
