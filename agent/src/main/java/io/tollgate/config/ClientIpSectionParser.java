package io.tollgate.config;

import static io.tollgate.config.YamlNodes.describe;
import static io.tollgate.config.YamlNodes.isNull;

import io.tollgate.keys.Cidr;
import io.tollgate.keys.TrustedProxies;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * The {@code client-ip:} section: trusted proxies (a hop count or CIDRs) and the IPv6 prefix that
 * keys IPv6 clients. Addresses are checked by {@link Cidr#parse}, the parser the agent builds its
 * resolver and allowlists with, so that what passes here the agent applies.
 */
final class ClientIpSectionParser {

  static final List<String> CLIENT_IP_KEYS = Arrays.asList("trusted-proxies", "ipv6-prefix");
  private static final Pattern LEADING_ZERO_OCTET =
      Pattern.compile("(^|[.:])0[0-9]+(?=[./]|$)");

  private final YamlNodes y;

  ClientIpSectionParser(YamlNodes y) {
    this.y = y;
  }

  ClientIpSettings parse(NodeTuple tuple, Map<String, Integer> lines) {
    if (tuple == null || isNull(tuple.getValueNode())) {
      return ClientIpSettings.DEFAULTS;
    }
    Node node = tuple.getValueNode();
    if (!(node instanceof MappingNode)) {
      y.problem(
          node,
          "client-ip must be a mapping with 'trusted-proxies:' and/or 'ipv6-prefix:', got "
              + describe(node));
      return ClientIpSettings.DEFAULTS;
    }
    Map<String, NodeTuple> f =
        y.fields((MappingNode) node, CLIENT_IP_KEYS, "in client-ip", "client-ip.");
    y.recordLines(f, "client-ip.", lines);
    int hops = 0;
    List<String> cidrs = new ArrayList<>();
    NodeTuple proxies = f.get("trusted-proxies");
    if (proxies != null) {
      Node v = proxies.getValueNode();
      String expected =
          "a number of proxy hops (0 to " + TrustedProxies.MAX_HOPS
              + ") or a list of proxy networks such as [10.0.0.0/8]";
      if (v instanceof SequenceNode) {
        for (Node item : ((SequenceNode) v).getValue()) {
          String cidr =
              y.string(item, "each entry of client-ip.trusted-proxies", "a CIDR such as 10.0.0.0/8", "");
          if (cidr != null) {
            String why = cidrProblem(cidr.trim());
            if (why == null) {
              cidrs.add(cidr.trim());
            } else {
              y.problem(
                  item,
                  "client-ip.trusted-proxies: '"
                      + cidr
                      + "' is not an IP address or CIDR such as 10.0.0.0/8 or fd00::/8 ("
                      + why + ")");
            }
          }
        }
      } else if (v instanceof ScalarNode && !isNull(v)) {
        Long n = y.integer(v, "client-ip.trusted-proxies", expected, 0, TrustedProxies.MAX_HOPS, "");
        hops = n == null ? 0 : n.intValue();
      } else {
        y.problem(v, "client-ip.trusted-proxies must be " + expected + ", got " + describe(v));
      }
    }
    int ipv6Prefix = 64;
    NodeTuple prefix = f.get("ipv6-prefix");
    if (prefix != null) {
      Long n =
          y.integer(
              prefix.getValueNode(),
              "client-ip.ipv6-prefix",
              "a prefix length from 1 to 128",
              1,
              128,
              "");
      ipv6Prefix = n == null ? 64 : n.intValue();
    }
    return new ClientIpSettings(hops, cidrs, ipv6Prefix);
  }

  /**
   * An IPv4 or IPv6 address, optionally with a /prefix that fits it: whatever {@link Cidr#parse},
   * which the agent builds the client-address resolver and allowlists with, accepts, so that a file
   * that passes here is one the agent can apply.
   */
  static boolean isCidr(String s) {
    return cidrProblem(s) == null;
  }

  /** Why {@code s} is not a CIDR the agent accepts, or null when it is one. */
  static String cidrProblem(String s) {
    try {
      Cidr.parse(s);
      return null;
    } catch (IllegalArgumentException e) {
      return LEADING_ZERO_OCTET.matcher(s).find()
          ? "an IPv4 octet with a leading zero, which some tools read as octal"
          : e.getMessage();
    }
  }
}
