package io.tollgate.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A request's forwarding headers are read only when the key depends on them, and the key is the
 * one the lists of every header line give.
 */
class LazyForwardingHeadersTest {

  /** A request's headers that remembers which were asked for. */
  static final class Request {
    final Map<String, List<String>> headers = new HashMap<>();
    final List<String> asked = new ArrayList<>();

    Request with(String name, String... lines) {
      headers.put(name, Arrays.asList(lines));
      return this;
    }

    List<String> lines(String name) {
      asked.add(name);
      return headers.getOrDefault(name, Collections.emptyList());
    }
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        // trusted proxies, peer, request, key, headers read
        Arguments.of(TrustedProxies.none(), "10.0.0.1",
            new Request().with("X-Forwarded-For", "203.0.113.7"), "10.0.0.1", List.of()),
        Arguments.of(TrustedProxies.hops(1), "10.0.0.1",
            new Request().with("X-Forwarded-For", "203.0.113.7"), "203.0.113.7",
            List.of("X-Forwarded-For")),
        Arguments.of(TrustedProxies.hops(1), "10.0.0.1",
            new Request().with("X-Forwarded-For", "198.51.100.1, 203.0.113.7"), "203.0.113.7",
            List.of("X-Forwarded-For")),
        Arguments.of(TrustedProxies.hops(2), "10.0.0.1",
            new Request().with("X-Forwarded-For", "198.51.100.1, 203.0.113.7", "192.0.2.9"),
            "203.0.113.7", List.of("X-Forwarded-For")),
        Arguments.of(TrustedProxies.hops(1), "10.0.0.1",
            new Request().with("Forwarded", "for=203.0.113.8"), "203.0.113.8",
            List.of("X-Forwarded-For", "Forwarded")),
        Arguments.of(TrustedProxies.hops(1), "10.0.0.1", new Request(), "10.0.0.1",
            List.of("X-Forwarded-For", "Forwarded")),
        Arguments.of(TrustedProxies.cidrs(List.of("10.0.0.0/8")), "192.0.2.1",
            new Request().with("X-Forwarded-For", "203.0.113.7"), "192.0.2.1", List.of()),
        Arguments.of(TrustedProxies.cidrs(List.of("10.0.0.0/8")), "10.0.0.1",
            new Request().with("X-Forwarded-For", "203.0.113.7, 10.0.0.2"), "203.0.113.7",
            List.of("X-Forwarded-For")));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void readsOnlyTheHeadersTheKeyDependsOn(
      TrustedProxies proxies, String peer, Request request, String key, List<String> read) {
    ClientAddressResolver resolver = new ClientAddressResolver(proxies);
    assertEquals(key, resolver.resolveFrom(peer, request, Request::lines));
    assertEquals(read, request.asked);
    Request again = new Request();
    again.headers.putAll(request.headers);
    assertEquals(key, resolver.resolve(peer, again.lines("X-Forwarded-For"),
        again.lines("Forwarded")), "the same key as from the lists of lines");
  }
}
