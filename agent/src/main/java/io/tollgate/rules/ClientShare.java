package io.tollgate.rules;

import io.tollgate.http.HttpExchange;
import io.tollgate.keys.RequestKeyResolver;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code per-client}: no one client holds more than a share of a concurrency rule's permits, so
 * that a few clients whose requests never end (a body sent at a byte a second, a download read as
 * slowly) cannot take every permit of a pool that others draw on.
 *
 * <p>A client is what {@code per-client-key} resolves to (its address unless told), within the
 * rule's own key: on a {@code global} rule one pool, on a tenant's rule each tenant's. It may hold
 * {@code max(1, permits x percent / 100)}, where permits is the rule's limit (for
 * adaptive-concurrency, the limit learnt now): at least one, so that no client is shut out of a
 * small pool. A request whose client holds its share is refused as the rule refuses, without
 * taking a permit.
 *
 * <p>Counted here, in this process, beside the rule's store: on {@code backend: redis} a
 * concurrency rule's pool is shared by every instance, while a client's share is counted per
 * instance. The map holds only clients with requests in flight (a client's entry goes when its
 * last request ends), so its size is bounded by the permits.
 */
public final class ClientShare {

  private final int percent;
  private final RequestKeyResolver clientKey;
  private final ConcurrentHashMap<String, Long> held = new ConcurrentHashMap<>();

  ClientShare(int percent, RequestKeyResolver clientKey) {
    if (percent < 1 || percent > 100) {
      throw new IllegalArgumentException("per-client is 1% to 100%: " + percent);
    }
    this.percent = percent;
    this.clientKey = clientKey;
  }

  public int percent() {
    return percent;
  }

  /** The most one client may hold of {@code permits}: {@code percent} of them, at least one. */
  public long shareOf(long permits) {
    return Math.max(1, permits * percent / 100);
  }

  /**
   * The client of a request counted against the rule's {@code ruleKey}, or null when the request
   * lacks the part that names its client (it is then held to the rule's limit only).
   */
  public String clientOf(HttpExchange exchange, String ruleKey) {
    String client = clientKey.resolvePrimary(exchange);
    return client == null ? null : ruleKey + '\n' + client;
  }

  /**
   * Takes {@code cost} of the client's share when it has that much left of {@code permits};
   * false, taking nothing, when not.
   */
  public boolean tryTake(String client, long cost, long permits) {
    long share = shareOf(permits);
    boolean[] taken = new boolean[1];
    held.compute(client, (k, n) -> {
      long now = n == null ? 0 : n;
      if (now + cost > share) {
        return n;
      }
      taken[0] = true;
      return now + cost;
    });
    return taken[0];
  }

  /** Gives back what a request of the client took, when it ends or another rule refused it. */
  public void release(String client, long cost) {
    held.computeIfPresent(client, (k, n) -> n - cost <= 0 ? null : n - cost);
  }

  /** What the client holds now. */
  public long held(String client) {
    Long n = held.get(client);
    return n == null ? 0 : n;
  }

  /** The number of clients holding permits now. */
  public int clientsHolding() {
    return held.size();
  }

  /** Whether this share counts as {@code other} would (the same percent and client key). */
  boolean sameAs(int otherPercent, String otherKeyDescription) {
    return percent == otherPercent && clientKey.description().equals(otherKeyDescription);
  }
}
