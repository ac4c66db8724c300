package io.tollgate.rules;

import io.tollgate.config.AllowConfig;
import io.tollgate.http.HttpExchange;
import io.tollgate.keys.Cidr;
import io.tollgate.keys.ClientAddressResolver;
import io.tollgate.keys.IpAddress;
import io.tollgate.keys.KeyHash;
import io.tollgate.keys.RequestKeyResolver;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A rule's {@code allow}: client networks (matched against the client address resolved through
 * the trusted proxies, as {@code key: ip} sees it) and key values that the rule never limits.
 */
final class Allowlist {

  static final Allowlist NONE =
      new Allowlist(new Cidr[0], Collections.<String>emptySet(), null);

  private final Cidr[] cidrs;
  private final Set<String> keys;
  private final ClientAddressResolver clients;

  private Allowlist(Cidr[] cidrs, Set<String> keys, ClientAddressResolver clients) {
    this.cidrs = cidrs;
    this.keys = keys;
    this.clients = clients;
  }

  /**
   * @param keyParts the rule's key; allowlisted key values are turned into what that key resolves
   *     to (a hash for {@code header:} and {@code cookie:} keys)
   * @param key the rule's resolver, whose stored form (normalised, bounded) a one-part key's
   *     allowlisted values take, so that {@code Admin} allowlists what requests for it resolve to
   */
  static Allowlist of(
      AllowConfig config, List<String> keyParts, RequestKeyResolver key, ClientAddressResolver clients) {
    if (config.isEmpty()) {
      return NONE;
    }
    Cidr[] cidrs = new Cidr[config.cidrs().size()];
    for (int i = 0; i < cidrs.length; i++) {
      cidrs[i] = Cidr.parse(config.cidrs().get(i));
    }
    Set<String> keys = new HashSet<>();
    boolean hashed =
        keyParts.size() == 1
            && (keyParts.get(0).startsWith("header:") || keyParts.get(0).startsWith("cookie:"));
    for (String k : config.keys()) {
      keys.add(hashed ? KeyHash.hash(k) : keyParts.size() == 1 ? key.storedForm(k) : k);
    }
    return new Allowlist(cidrs, keys, clients);
  }

  boolean isEmpty() {
    return cidrs.length == 0 && keys.isEmpty();
  }

  /** Whether this request, counted against {@code key}, is exempt. */
  boolean allows(HttpExchange exchange, String key) {
    if (!keys.isEmpty() && keys.contains(key)) {
      return true;
    }
    if (cidrs.length == 0 || exchange.remoteAddress() == null) {
      return false;
    }
    boolean readsHeaders = !clients.trustedProxies().ignoresHeaders();
    IpAddress client =
        clients.resolveAddress(
            exchange.remoteAddress(),
            readsHeaders ? exchange.headerLines("X-Forwarded-For") : Collections.<String>emptyList(),
            readsHeaders ? exchange.headerLines("Forwarded") : Collections.<String>emptyList());
    if (client == null) {
      return false;
    }
    for (Cidr cidr : cidrs) {
      if (cidr.contains(client)) {
        return true;
      }
    }
    return false;
  }
}
