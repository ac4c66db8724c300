package io.tollgate.testing.redis;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A Redis Cluster of the test's own on 127.0.0.1: {@code masters} masters sharing the 16384 slots,
 * each with one replica, built with CLUSTER ADDSLOTS, MEET and REPLICATE (what {@code redis-cli
 * --cluster create --cluster-replicas 1} does). Every node is a {@link RedisProcess}, so a test can
 * kill one by its process id; {@link #close()} kills them all.
 */
public final class LocalRedisCluster implements AutoCloseable {

  private static final int SLOTS = 16384;

  private final List<RedisProcess> nodes = new ArrayList<>();
  private final int masters;

  private LocalRedisCluster(int masters) {
    this.masters = masters;
  }

  /**
   * Starts and joins the nodes, and waits until every node reports {@code cluster_state:ok} and
   * every replica has synchronised with its master. {@code nodeTimeoutMillis} is the cluster's
   * {@code cluster-node-timeout}: how long a master may be silent before its replica takes over.
   */
  public static LocalRedisCluster startWithReplicas(Path binary, int masters, int nodeTimeoutMillis) {
    LocalRedisCluster cluster = new LocalRedisCluster(masters);
    try {
      for (int port : clusterPorts(masters * 2)) {
        cluster.nodes.add(
            RedisProcess.start(
                binary, port, "--cluster-enabled", "yes", "--cluster-config-file",
                "nodes-" + port + ".conf", "--cluster-node-timeout",
                Integer.toString(nodeTimeoutMillis)));
      }
      for (int i = 0; i < masters; i++) {
        int from = i * (SLOTS / masters);
        int to = i == masters - 1 ? SLOTS - 1 : (i + 1) * (SLOTS / masters) - 1;
        List<String> command = new ArrayList<>();
        command.add("CLUSTER");
        command.add("ADDSLOTS");
        for (int slot = from; slot <= to; slot++) {
          command.add(Integer.toString(slot));
        }
        cluster.nodes.get(i).call(command.toArray(new String[0]));
      }
      RedisProcess first = cluster.nodes.get(0);
      for (RedisProcess node : cluster.nodes.subList(1, cluster.nodes.size())) {
        first.call("CLUSTER", "MEET", "127.0.0.1", Integer.toString(node.port()));
      }
      int size = cluster.nodes.size();
      await(
          () -> cluster.nodes.stream().allMatch(
              n -> info(n, "CLUSTER", "INFO").contains("cluster_known_nodes:" + size)),
          "every node knows the " + size + " nodes");
      for (int i = 0; i < masters; i++) {
        String masterId = String.valueOf(cluster.nodes.get(i).call("CLUSTER", "MYID"));
        cluster.nodes.get(masters + i).call("CLUSTER", "REPLICATE", masterId);
      }
      await(
          () -> cluster.nodes.stream().allMatch(
              n -> info(n, "CLUSTER", "INFO").contains("cluster_state:ok")),
          "cluster_state:ok on every node");
      await(
          () -> cluster.replicas().stream().allMatch(
              n -> info(n, "INFO", "replication").contains("master_link_status:up")),
          "every replica in sync with its master");
      return cluster;
    } catch (RuntimeException | Error e) {
      cluster.close();
      throw e;
    }
  }

  /** The nodes started as masters (index i's replica is {@code replicas().get(i)}). */
  public List<RedisProcess> masters() {
    return nodes.subList(0, masters);
  }

  public List<RedisProcess> replicas() {
    return nodes.subList(masters, nodes.size());
  }

  public List<RedisProcess> nodes() {
    return nodes;
  }

  /** What {@code ROLE} says the node is now: master or slave. */
  public static String role(RedisProcess node) {
    Object reply = node.call("ROLE");
    return reply instanceof List ? String.valueOf(((List<?>) reply).get(0)) : String.valueOf(reply);
  }

  private static String info(RedisProcess node, String... command) {
    try {
      return String.valueOf(node.call(command));
    } catch (RuntimeException e) {
      return "";
    }
  }

  /** Waits (up to 60 s) for {@code condition}; fails saying {@code what} did not happen. */
  public static void await(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("not within 60 s: " + what);
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  /** Free ports whose cluster bus ports (port + 10000) are free too. */
  private static int[] clusterPorts(int count) {
    int[] ports = new int[count];
    Random random = new Random();
    int found = 0;
    while (found < count) {
      int port = 20_000 + random.nextInt(20_000);
      boolean taken = false;
      for (int i = 0; i < found; i++) {
        taken |= ports[i] == port || ports[i] + 10_000 == port || ports[i] == port + 10_000;
      }
      if (!taken && free(port) && free(port + 10_000)) {
        ports[found++] = port;
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

  @Override
  public void close() {
    for (RedisProcess node : nodes) {
      try {
        node.close();
      } catch (RuntimeException ignored) {
        // the others are still killed
      }
    }
  }
}
