package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
import io.tollgate.testing.redis.RedisBinaries;
import io.tollgate.testing.redis.RedisProcess;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A three-node Redis Cluster of the test's own (no replicas), built with CLUSTER ADDSLOTS and
 * CLUSTER MEET: decisions route to the node of each key's hash tag (no CROSSSLOT, no MOVED left to
 * the caller), every node loads the script on its first NOSCRIPT, and buckets spread over all nodes.
 */
class RedisClusterTest {

  @Test
  void tokenBucketOnThreeNodeCluster() throws Exception {
    Path binary = RedisBinaries.onPath() != null ? RedisBinaries.onPath() : RedisBinaries.embedded();
    assertTrue(binary != null, "no redis-server binary: install redis-server");
    List<RedisProcess> nodes = new ArrayList<>();
    try {
      int[] ports = clusterPorts(3);
      for (int port : ports) {
        nodes.add(
            RedisProcess.start(
                binary, port, "--cluster-enabled", "yes", "--cluster-config-file",
                "nodes-" + port + ".conf", "--cluster-node-timeout", "2000"));
      }
      int slotsPerNode = 16384 / 3;
      for (int i = 0; i < 3; i++) {
        int from = i * slotsPerNode;
        int to = i == 2 ? 16383 : (i + 1) * slotsPerNode - 1;
        List<String> command = new ArrayList<>();
        command.add("CLUSTER");
        command.add("ADDSLOTS");
        for (int slot = from; slot <= to; slot++) {
          command.add(Integer.toString(slot));
        }
        nodes.get(i).call(command.toArray(new String[0]));
      }
      for (int i = 1; i < 3; i++) {
        nodes.get(0).call("CLUSTER", "MEET", "127.0.0.1", Integer.toString(ports[i]));
      }
      awaitClusterOk(nodes);

      List<String> seeds = new ArrayList<>();
      seeds.add(nodes.get(0).uri());
      RedisConnectionSettings settings =
          RedisConnectionSettings.cluster(seeds).withTimeout(Duration.ofSeconds(5));
      try (RedisBackend backend = RedisBackend.connect(settings)) {
        assertTrue(backend.awaitConnected(Duration.ofSeconds(30)), "cluster connection");
        TokenBucketConformanceTest.runConformance(
            backend, null, new LimitSpec(7, TimeUnit.MINUTES.toNanos(1), 3), 600, 3, 40);
        for (io.tollgate.limiters.AlgorithmKind kind
            : AlgorithmConformanceTest.kinds().toArray(io.tollgate.limiters.AlgorithmKind[]::new)) {
          AlgorithmConformanceTest.runRandomTraffic(
              backend, kind, 5, TimeUnit.MINUTES.toNanos(1), 5, 0, 300);
        }
        // A rule's several limits: keys in one slot (the rule's hash tag), one script over them.
        for (io.tollgate.limiters.AlgorithmKind kind : BudgetGroupConformanceTest.MULTI_LIMIT) {
          BudgetGroupConformanceTest.runRandomTraffic(backend, kind, 200);
        }

        RedisGcraStore store =
            new RedisGcraStore(
                backend, RedisTestSupport.uniqueRule("cluster"),
                new TokenBucket(LimitSpec.of(2, TimeUnit.DAYS.toNanos(10))));
        Verdict verdict = new Verdict();
        Random random = new Random(5);
        for (int i = 0; i < 300; i++) {
          String key = "client-" + random.nextInt(100_000);
          store.decide(key, 1, verdict);
          assertTrue(verdict.allowed, key + ": " + verdict);
        }
        for (RedisProcess node : nodes) {
          long keys = (Long) node.call("DBSIZE");
          assertTrue(keys > 30, "buckets spread over every node: " + node + " has " + keys);
        }
        for (RedisProcess node : nodes) {
          node.call("SCRIPT", "FLUSH");
        }
        store.decide("again", 1, verdict);
        store.decide("again", 1, verdict);
        store.decide("again", 1, verdict);
        assertEquals(false, verdict.allowed, "third of limit 2, after a flush on every node");
      }
    } finally {
      for (RedisProcess node : nodes) {
        node.close();
      }
    }
  }

  /** Free ports whose cluster bus ports (port + 10000) are free too. */
  private static int[] clusterPorts(int count) throws Exception {
    int[] ports = new int[count];
    Random random = new Random();
    int found = 0;
    while (found < count) {
      int port = 20_000 + random.nextInt(20_000);
      if (free(port) && free(port + 10_000)) {
        boolean taken = false;
        for (int i = 0; i < found; i++) {
          taken |= ports[i] == port;
        }
        if (!taken) {
          ports[found++] = port;
        }
      }
    }
    return ports;
  }

  private static boolean free(int port) {
    try (ServerSocket socket = new ServerSocket(port)) {
      return true;
    } catch (Exception e) {
      return false;
    }
  }

  private static void awaitClusterOk(List<RedisProcess> nodes) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      boolean ok = true;
      for (RedisProcess node : nodes) {
        ok &= String.valueOf(node.call("CLUSTER", "INFO")).contains("cluster_state:ok");
      }
      if (ok) {
        return;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("cluster did not reach cluster_state:ok in 60 s");
      }
      Thread.sleep(100);
    }
  }
}
