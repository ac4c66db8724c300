package io.tollgate.config;

import static io.tollgate.config.YamlNodes.describe;
import static io.tollgate.config.YamlNodes.isNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/** The {@code redis:} section: the server, timeouts, TLS, the refusal cache and leases. */
final class RedisSectionParser {

  static final List<String> REDIS_KEYS =
      Arrays.asList("uri", "cluster", "timeout", "max-wait", "max-waiting-threads", "tls",
          "refusal-cache", "lease-tokens");
  /** More waiting threads than this would no longer bound anything an app server has. */
  static final long MAX_WAITING_THREADS = 10_000;
  static final List<String> REDIS_TLS_KEYS = Arrays.asList("ca-file", "verify-peer");
  /** A lease larger than this would hold back too much of a limit in one instance. */
  static final long MAX_LEASE_TOKENS = 10_000;

  private final YamlNodes y;

  RedisSectionParser(YamlNodes y) {
    this.y = y;
  }

  /**
   * The section of the {@code redis:} key {@code tuple} ({@code required} with {@code backend:
   * redis}); its keys' lines go to {@code lines}. Null when it is wrong.
   */
  RedisSettings parse(NodeTuple tuple, boolean required, Map<String, Integer> lines) {
    Node node = tuple.getValueNode();
    if (isNull(node)) {
      if (required) {
        y.problem(tuple.getKeyNode(), "redis needs 'uri:' (or 'cluster:'), but the section is empty");
      }
      return null;
    }
    if (!(node instanceof MappingNode)) {
      y.problem(node, "redis must be a mapping with 'uri:' or 'cluster:', got " + describe(node));
      return null;
    }
    int before = y.problemCount();
    Map<String, NodeTuple> f = y.fields((MappingNode) node, REDIS_KEYS, "in redis", "redis.");
    y.recordLines(f, "redis.", lines);
    String uri = uri(f.get("uri"));
    List<String> cluster = cluster(f.get("cluster"));
    checkOneServer(tuple, f.get("uri"), f.get("cluster"));
    long timeout = RedisSettings.DEFAULT_TIMEOUT_NANOS;
    NodeTuple timeoutTuple = f.get("timeout");
    if (timeoutTuple != null) {
      Long t = y.duration(timeoutTuple.getValueNode(), "redis.timeout", "");
      timeout = t == null ? timeout : t;
    }
    long maxWait = maxWait(f.get("max-wait"), timeoutTuple, timeout);
    boolean refusalCache = false;
    NodeTuple refusalTuple = f.get("refusal-cache");
    if (refusalTuple != null) {
      Boolean b = y.bool(refusalTuple.getValueNode(), "redis.refusal-cache", "");
      refusalCache = b != null && b;
    }
    long leaseTokens = 1;
    NodeTuple leaseTuple = f.get("lease-tokens");
    if (leaseTuple != null) {
      Long n =
          y.integer(leaseTuple.getValueNode(), "redis.lease-tokens",
              "a whole number of tokens from 1 (no leasing) to " + MAX_LEASE_TOKENS, 1,
              MAX_LEASE_TOKENS, "");
      leaseTokens = n == null ? leaseTokens : n;
    }
    int maxWaitingThreads = 0;
    NodeTuple waitingTuple = f.get("max-waiting-threads");
    if (waitingTuple != null) {
      Long n =
          y.integer(waitingTuple.getValueNode(), "redis.max-waiting-threads",
              "a whole number of request threads from 1 to " + MAX_WAITING_THREADS, 1,
              MAX_WAITING_THREADS, "");
      maxWaitingThreads = n == null ? 0 : n.intValue();
    }
    Tls tls = tls(f.get("tls"), uri, cluster, lines);
    // Each wrong value above is reported: the section is then not used (the file is refused).
    return y.problemCount() > before
        ? null
        : new RedisSettings(
            uri, cluster, timeout, maxWait, refusalCache, leaseTokens, tls.caFile, tls.verifyPeer,
            maxWaitingThreads);
  }

  /**
   * {@code redis.max-wait}: how long a decision waits for a reply later than the timeout while
   * Redis answers other calls. At least the timeout (a shorter bound would never be waited for)
   * and at most what the agent holds a request in all; the default when absent or wrong.
   */
  private long maxWait(NodeTuple maxWaitTuple, NodeTuple timeoutTuple, long timeout) {
    if (maxWaitTuple == null) {
      return RedisSettings.DEFAULT_MAX_WAIT_NANOS;
    }
    Node node = maxWaitTuple.getValueNode();
    Long w = y.duration(node, "redis.max-wait", "");
    if (w == null) {
      return RedisSettings.DEFAULT_MAX_WAIT_NANOS;
    }
    String given = ((ScalarNode) node).getValue().trim(); // a duration was read: a scalar
    if (w > RedisSettings.MAX_MAX_WAIT_NANOS) {
      y.problem(
          node,
          "redis.max-wait must be at most " + Durations.format(RedisSettings.MAX_MAX_WAIT_NANOS)
              + " (no request is held by the agent longer), got '" + given + "'");
    } else if (w < timeout) {
      y.problem(
          node,
          "redis.max-wait must be at least redis.timeout ("
              + Durations.format(timeout)
              + (timeoutTuple == null ? ", the default" : "")
              + "): it bounds how long a reply later than the timeout is waited for; got '"
              + given + "'");
    }
    return w;
  }

  /** {@code redis.uri}, with {@code ${NAME}} expanded; null when absent or wrong. */
  private String uri(NodeTuple uriTuple) {
    if (uriTuple == null) {
      return null;
    }
    String raw = y.string(uriTuple.getValueNode(), "redis.uri", "a Redis URI such as redis://127.0.0.1:6379", "");
    String uri = raw == null ? null : y.expand(raw, uriTuple.getValueNode(), "redis.uri");
    if (uri != null && !hasScheme(uri, "redis://", "rediss://", "redis-sentinel://")) {
      y.problem(
          uriTuple.getValueNode(),
          "redis.uri must start with redis://, rediss:// or redis-sentinel://, got '"
              + RedisSettings.redact(uri)
              + "'");
    }
    return uri;
  }

  /** The seed nodes of {@code redis.cluster}, with {@code ${NAME}} expanded; empty when absent. */
  private List<String> cluster(NodeTuple clusterTuple) {
    List<String> cluster = new ArrayList<>();
    if (clusterTuple == null || isNull(clusterTuple.getValueNode())) {
      return cluster; // "cluster:" with nothing: the same as an empty list
    }
    Node cn = clusterTuple.getValueNode();
    if (!(cn instanceof SequenceNode)) {
      y.problem(
          cn,
          "redis.cluster must be a list of seed node URIs such as [redis://10.0.0.1:6379], got "
              + describe(cn));
      return cluster;
    }
    for (Node item : ((SequenceNode) cn).getValue()) {
      String raw = y.string(item, "each entry of redis.cluster", "a seed node URI such as redis://10.0.0.1:6379", "");
      String seed = raw == null ? null : y.expand(raw, item, "redis.cluster");
      if (seed != null && !hasScheme(seed, "redis://", "rediss://")) {
        y.problem(
            item,
            "each entry of redis.cluster must start with redis:// or rediss://, got '"
                + RedisSettings.redact(seed)
                + "'");
      } else if (seed != null) {
        cluster.add(seed);
      }
    }
    return cluster;
  }

  /** Exactly one of {@code uri} and a non-empty {@code cluster}. */
  private void checkOneServer(NodeTuple tuple, NodeTuple uriTuple, NodeTuple clusterTuple) {
    boolean clusterMalformed =
        clusterTuple != null
            && !isNull(clusterTuple.getValueNode())
            && !(clusterTuple.getValueNode() instanceof SequenceNode);
    boolean hasUri = uriTuple != null;
    boolean hasCluster = clusterTuple != null && clusterTuple.getValueNode() instanceof SequenceNode
        && !((SequenceNode) clusterTuple.getValueNode()).getValue().isEmpty();
    if (clusterMalformed) {
      return; // already reported
    }
    if (hasUri && hasCluster) {
      y.problem(
          clusterTuple.getKeyNode(),
          "redis has both 'uri' and 'cluster'; give exactly one of them");
    } else if (!hasUri && !hasCluster && clusterTuple == null) {
      y.problem(tuple.getKeyNode(), "redis needs 'uri:' (or 'cluster:' with a list of seed nodes)");
    } else if (!hasUri && !hasCluster) {
      y.problem(
          clusterTuple.getKeyNode(),
          "redis.cluster is empty and there is no redis.uri; give one of them");
    }
  }

  /** What {@code redis.tls} says: the CA file (or null) and how the server's certificate is checked. */
  private static final class Tls {
    final String caFile;
    final RedisSettings.VerifyPeer verifyPeer;

    Tls(String caFile, RedisSettings.VerifyPeer verifyPeer) {
      this.caFile = caFile;
      this.verifyPeer = verifyPeer;
    }
  }

  private Tls tls(NodeTuple tlsTuple, String uri, List<String> cluster, Map<String, Integer> lines) {
    String caFile = null;
    RedisSettings.VerifyPeer verifyPeer = RedisSettings.VerifyPeer.FULL;
    if (tlsTuple == null || isNull(tlsTuple.getValueNode())) {
      return new Tls(caFile, verifyPeer);
    }
    Node tn = tlsTuple.getValueNode();
    if (!(tn instanceof MappingNode)) {
      y.problem(tn, "redis.tls must be a mapping with 'ca-file:' and/or 'verify-peer:', got " + describe(tn));
      return new Tls(caFile, verifyPeer);
    }
    Map<String, NodeTuple> t = y.fields((MappingNode) tn, REDIS_TLS_KEYS, "in redis.tls", "redis.tls.");
    y.recordLines(t, "redis.tls.", lines);
    NodeTuple caTuple = t.get("ca-file");
    if (caTuple != null) {
      String raw = y.string(caTuple.getValueNode(), "redis.tls.ca-file", "the path of a PEM file of CA certificates", "");
      caFile = raw == null ? null : y.expand(raw, caTuple.getValueNode(), "redis.tls.ca-file");
    }
    NodeTuple verifyTuple = t.get("verify-peer");
    if (verifyTuple != null) {
      RedisSettings.VerifyPeer v =
          y.enumValue(verifyTuple, "redis.tls.verify-peer", RedisSettings.VerifyPeer.values(), "");
      verifyPeer = v == null ? verifyPeer : v;
    }
    boolean usesTls = (uri != null && hasScheme(uri, "rediss://"))
        || cluster.stream().anyMatch(seed -> hasScheme(seed, "rediss://"));
    boolean sentinel = uri != null && hasScheme(uri, "redis-sentinel://");
    if (!t.isEmpty() && !usesTls && !sentinel && (uri != null || !cluster.isEmpty())) {
      y.problem(
          tlsTuple.getKeyNode(),
          "redis.tls applies to rediss:// only, but the server is reached with redis://;"
              + " write rediss:// to use TLS, or remove the tls section");
    }
    return new Tls(caFile, verifyPeer);
  }

  private static boolean hasScheme(String uri, String... schemes) {
    String lower = uri.trim().toLowerCase(Locale.ROOT);
    for (String s : schemes) {
      if (lower.startsWith(s) && lower.length() > s.length()) {
        return true;
      }
    }
    return false;
  }
}
