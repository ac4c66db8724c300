package io.tollgate.rules;

import io.tollgate.config.ClientIpSettings;
import io.tollgate.keys.ClientAddressResolver;
import io.tollgate.keys.TrustedProxies;

/** The client-address resolver that a rules file's {@code client-ip} section describes. */
final class ClientAddresses {

  private ClientAddresses() {}

  static ClientAddressResolver resolverFor(ClientIpSettings settings) {
    TrustedProxies proxies =
        settings.trustedProxyCidrs().isEmpty()
            ? TrustedProxies.hops(settings.trustedProxyHops())
            : TrustedProxies.cidrs(settings.trustedProxyCidrs());
    return new ClientAddressResolver(proxies, settings.ipv6Prefix());
  }
}
