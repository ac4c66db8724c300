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
import org.yaml.snakeyaml.nodes.SequenceNode;

/** The {@code redis:} section: the server, timeouts, TLS, the refusal cache and leases. */
final class RedisSectionParser {

  static final List<String> REDIS_KEYS =
      Arrays.asList("uri", "cluster", "timeout", "tls", "refusal-cache", "lease-tokens");
  static final List<String> REDIS_TLS_KEYS = Arrays.asList("ca-file", "verify-peer");
  /** A lease larger than this would hold back too much of a limit in one instance. */
  static final long MAX_LEASE_TOKENS = 10_000;

  private final YamlNodes y;

  RedisSectionParser(YamlNodes y) {
    this.y = y;
  }

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
    Map<String, NodeTuple> f = y.fields((MappingNode) node, REDIS_KEYS, "in redis", "redis.");
    y.recordLines(f, "redis.", lines);
    boolean ok = true;
    String uri = null;
    NodeTuple uriTuple = f.get("uri");
    if (uriTuple != null) {
      String raw = y.string(uriTuple.getValueNode(), "redis.uri", "a Redis URI such as redis://127.0.0.1:6379", "");
      if (raw == null) {
        ok = false;
      } else {
        uri = y.expand(raw, uriTuple.getValueNode(), "redis.uri");
        if (uri == null) {
          ok = false;
        } else if (!hasScheme(uri, "redis://", "rediss://", "redis-sentinel://")) {
          y.problem(
              uriTuple.getValueNode(),
              "redis.uri must start with redis://, rediss:// or redis-sentinel://, got '"
                  + RedisSettings.redact(uri)
                  + "'");
          ok = false;
        }
      }
    }
    List<String> cluster = new ArrayList<>();
    NodeTuple clusterTuple = f.get("cluster");
    if (clusterTuple != null) {
      Node cn = clusterTuple.getValueNode();
      if (isNull(cn)) {
        // "cluster:" with nothing: the same as an empty list
      } else if (!(cn instanceof SequenceNode)) {
        y.problem(
            cn,
            "redis.cluster must be a list of seed node URIs such as [redis://10.0.0.1:6379], got "
                + describe(cn));
        ok = false;
      } else {
        for (Node item : ((SequenceNode) cn).getValue()) {
          String raw = y.string(item, "each entry of redis.cluster", "a seed node URI such as redis://10.0.0.1:6379", "");
          String seed = raw == null ? null : y.expand(raw, item, "redis.cluster");
          if (seed == null) {
            ok = false;
          } else if (!hasScheme(seed, "redis://", "rediss://")) {
            y.problem(
                item,
                "each entry of redis.cluster must start with redis:// or rediss://, got '"
                    + RedisSettings.redact(seed)
                    + "'");
            ok = false;
          } else {
            cluster.add(seed);
          }
        }
      }
    }
    boolean clusterMalformed =
        clusterTuple != null
            && !isNull(clusterTuple.getValueNode())
            && !(clusterTuple.getValueNode() instanceof SequenceNode);
    boolean hasUri = uriTuple != null;
    boolean hasCluster = clusterTuple != null && clusterTuple.getValueNode() instanceof SequenceNode
        && !((SequenceNode) clusterTuple.getValueNode()).getValue().isEmpty();
    if (clusterMalformed) {
      // already reported
    } else if (hasUri && hasCluster) {
      y.problem(
          clusterTuple.getKeyNode(),
          "redis has both 'uri' and 'cluster'; give exactly one of them");
      ok = false;
    } else if (!hasUri && !hasCluster && clusterTuple == null) {
      y.problem(tuple.getKeyNode(), "redis needs 'uri:' (or 'cluster:' with a list of seed nodes)");
      ok = false;
    } else if (!hasUri && !hasCluster) {
      y.problem(
          clusterTuple.getKeyNode(),
          "redis.cluster is empty and there is no redis.uri; give one of them");
      ok = false;
    }
    long timeout = RedisSettings.DEFAULT_TIMEOUT_NANOS;
    NodeTuple timeoutTuple = f.get("timeout");
    if (timeoutTuple != null) {
      Long t = y.duration(timeoutTuple.getValueNode(), "redis.timeout", "");
      if (t == null) {
        ok = false;
      } else {
        timeout = t;
      }
    }
    boolean refusalCache = false;
    NodeTuple refusalTuple = f.get("refusal-cache");
    if (refusalTuple != null) {
      Boolean b = y.bool(refusalTuple.getValueNode(), "redis.refusal-cache", "");
      if (b == null) {
        ok = false;
      } else {
        refusalCache = b;
      }
    }
    long leaseTokens = 1;
    NodeTuple leaseTuple = f.get("lease-tokens");
    if (leaseTuple != null) {
      Long n =
          y.integer(leaseTuple.getValueNode(), "redis.lease-tokens",
              "a whole number of tokens from 1 (no leasing) to " + MAX_LEASE_TOKENS, 1,
              MAX_LEASE_TOKENS, "");
      if (n == null) {
        ok = false;
      } else {
        leaseTokens = n;
      }
    }
    String caFile = null;
    RedisSettings.VerifyPeer verifyPeer = RedisSettings.VerifyPeer.FULL;
    NodeTuple tlsTuple = f.get("tls");
    if (tlsTuple != null && !isNull(tlsTuple.getValueNode())) {
      Node tn = tlsTuple.getValueNode();
      if (!(tn instanceof MappingNode)) {
        y.problem(tn, "redis.tls must be a mapping with 'ca-file:' and/or 'verify-peer:', got " + describe(tn));
        ok = false;
      } else {
        Map<String, NodeTuple> t = y.fields((MappingNode) tn, REDIS_TLS_KEYS, "in redis.tls", "redis.tls.");
        y.recordLines(t, "redis.tls.", lines);
        NodeTuple caTuple = t.get("ca-file");
        if (caTuple != null) {
          String raw = y.string(caTuple.getValueNode(), "redis.tls.ca-file", "the path of a PEM file of CA certificates", "");
          caFile = raw == null ? null : y.expand(raw, caTuple.getValueNode(), "redis.tls.ca-file");
          if (caFile == null) {
            ok = false;
          }
        }
        NodeTuple verifyTuple = t.get("verify-peer");
        if (verifyTuple != null) {
          RedisSettings.VerifyPeer v =
              y.enumValue(verifyTuple, "redis.tls.verify-peer", RedisSettings.VerifyPeer.values(), "");
          if (v == null) {
            ok = false;
          } else {
            verifyPeer = v;
          }
        }
        boolean usesTls = (uri != null && hasScheme(uri, "rediss://"))
            || cluster.stream().anyMatch(seed -> hasScheme(seed, "rediss://"));
        boolean sentinel = uri != null && hasScheme(uri, "redis-sentinel://");
        if (!t.isEmpty() && !usesTls && !sentinel && (uri != null || !cluster.isEmpty())) {
          y.problem(
              tlsTuple.getKeyNode(),
              "redis.tls applies to rediss:// only, but the server is reached with redis://;"
                  + " write rediss:// to use TLS, or remove the tls section");
          ok = false;
        }
      }
    }
    return ok
        ? new RedisSettings(uri, cluster, timeout, refusalCache, leaseTokens, caFile, verifyPeer)
        : null;
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
