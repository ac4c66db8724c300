package io.tollgate.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The {@code client-ip} section: how the client's address is found and keyed. */
public final class ClientIpSettings {
  /** Defaults: no trusted proxies, IPv6 clients keyed by their /64. */
  public static final ClientIpSettings DEFAULTS =
      new ClientIpSettings(0, Collections.<String>emptyList(), 64);

  private final int trustedProxyHops;
  private final List<String> trustedProxyCidrs;
  private final int ipv6Prefix;

  public ClientIpSettings(int trustedProxyHops, List<String> trustedProxyCidrs, int ipv6Prefix) {
    this.trustedProxyHops = trustedProxyHops;
    this.trustedProxyCidrs =
        Collections.unmodifiableList(new ArrayList<>(trustedProxyCidrs));
    this.ipv6Prefix = ipv6Prefix;
  }

  /** {@code trusted-proxies: N}: how many proxy hops to trust; 0 (the default) when a list was given. */
  public int trustedProxyHops() {
    return trustedProxyHops;
  }

  /** {@code trusted-proxies: [CIDR, ...]}: the proxies' networks, as written; empty unless a list was given. */
  public List<String> trustedProxyCidrs() {
    return trustedProxyCidrs;
  }

  /** {@code ipv6-prefix}: IPv6 clients are keyed by this prefix length, 1..128, default 64. */
  public int ipv6Prefix() {
    return ipv6Prefix;
  }

  @Override
  public String toString() {
    return "ClientIpSettings{trustedProxyHops="
        + trustedProxyHops
        + ", trustedProxyCidrs="
        + trustedProxyCidrs
        + ", ipv6Prefix="
        + ipv6Prefix
        + "}";
  }
}
