package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.config.OnFailure;
import io.tollgate.config.RulesConfig;
import io.tollgate.config.RulesFileParser;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
import io.tollgate.rules.Rule;
import io.tollgate.rules.RuleSet;
import io.tollgate.rules.RuleSetFactory;
import io.tollgate.stores.redis.RedisConnectionSettings.VerifyPeer;
import io.tollgate.testing.redis.RedisBinaries;
import io.tollgate.testing.redis.RedisProcess;
import io.tollgate.testing.redis.TestCertificates;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code rediss://} end to end against a redis-server of the test's own with TLS on, serving a
 * certificate for {@code localhost} only, signed by a throwaway CA: what connects with which trust
 * settings, and that a client that cannot connect (untrusted certificate, wrong name, plain TCP
 * against the TLS port) answers with the on-failure policy instead of waiting.
 */
class RedisTlsTest {

  private static final long TEN_DAYS = TimeUnit.DAYS.toNanos(10);

  private static TestCertificates certificates;
  private static RedisProcess server;

  @BeforeAll
  static void startTlsServer() {
    Path binary = RedisBinaries.onPath() != null ? RedisBinaries.onPath() : RedisBinaries.embedded();
    assertTrue(binary != null, "no redis-server binary: install redis-server");
    certificates = TestCertificates.create("DNS:localhost");
    server =
        RedisProcess.startWithTls(
            binary, certificates.serverCertificate(), certificates.serverKey(),
            certificates.caCertificate());
  }

  @AfterAll
  static void stopTlsServer() {
    if (server != null) {
      server.close();
    }
  }

  static Stream<Arguments> trustSettings() {
    return Stream.of(
        // host      trust the test CA  verify-peer      connects
        Arguments.of("localhost", true, VerifyPeer.FULL, true),
        Arguments.of("127.0.0.1", true, VerifyPeer.FULL, false), // the certificate names localhost
        Arguments.of("127.0.0.1", true, VerifyPeer.CA, true),
        Arguments.of("localhost", false, VerifyPeer.FULL, false), // the JVM does not trust the CA
        Arguments.of("localhost", false, VerifyPeer.CA, false),
        Arguments.of("127.0.0.1", false, VerifyPeer.NONE, true));
  }

  @ParameterizedTest(name = "rediss://{0} trusting the CA file: {1}, verify-peer {2}: connects {3}")
  @MethodSource("trustSettings")
  void connectsOnlyWhenTheServerIsTrusted(
      String host, boolean caFile, VerifyPeer verify, boolean connects) {
    RedisConnectionSettings settings =
        RedisConnectionSettings.uri("rediss://" + host + ":" + server.tlsPort())
            .withTimeout(Duration.ofSeconds(5))
            .withConnectTimeout(Duration.ofSeconds(10))
            .withTls(caFile ? certificates.caCertificate().toString() : null, verify);
    try (RedisBackend backend = RedisBackend.connect(settings)) {
      RedisGcraStore shared =
          new RedisGcraStore(
              backend, RedisTestSupport.uniqueRule("tls"), new TokenBucket(LimitSpec.of(2, TEN_DAYS)));
      FailurePolicyStore store =
          new FailurePolicyStore(shared, OnFailure.DENY, () -> 1, Clock.system(), 100);
      Verdict verdict = new Verdict();
      if (connects) {
        // Generous: the first TLS handshake of the JVM on a busy machine can take seconds.
        assertTrue(backend.awaitConnected(Duration.ofSeconds(60)), "connected to " + settings);
        assertEquals(DecisionSource.BACKEND, store.decideWithSource("k", 1, verdict));
        assertTrue(verdict.allowed);
        store.decide("k", 1, verdict);
        store.decide("k", 1, verdict);
        assertFalse(verdict.allowed, "the third of 2, decided over TLS");
        assertFalse(verdict.backendUnavailable);
      } else {
        String why = awaitConnectFailure(shared);
        assertTrue(
            why.contains("SSL") || why.contains("certificate") || why.contains("PKIX"),
            "a TLS failure: " + why);
        for (int i = 0; i < 20; i++) {
          assertEquals(DecisionSource.FAIL_CLOSED, store.decideWithSource("k", 1, verdict));
          assertFalse(verdict.allowed);
          assertTrue(verdict.retryAfterNanos >= TimeUnit.SECONDS.toNanos(1), verdict.toString());
        }
        assertFalse(backend.isConnected());
      }
    }
  }

  @Test
  void aPlainClientOnTheTlsPortGetsTheOnFailurePolicy() {
    RedisConnectionSettings settings =
        RedisConnectionSettings.uri("redis://127.0.0.1:" + server.tlsPort())
            .withTimeout(Duration.ofMillis(200));
    try (RedisBackend backend = RedisBackend.connect(settings)) {
      RedisGcraStore shared =
          new RedisGcraStore(
              backend, RedisTestSupport.uniqueRule("plain"), new TokenBucket(LimitSpec.of(2, TEN_DAYS)));
      awaitConnectFailure(shared);
      FailurePolicyStore deny =
          new FailurePolicyStore(shared, OnFailure.DENY, () -> 1, Clock.system(), 100);
      FailurePolicyStore allow =
          new FailurePolicyStore(shared, OnFailure.ALLOW, () -> 1, Clock.system(), 100);
      Verdict verdict = new Verdict();
      for (int i = 0; i < 20; i++) {
        assertEquals(DecisionSource.FAIL_CLOSED, deny.decideWithSource("k", 1, verdict));
        assertFalse(verdict.allowed);
        assertEquals(DecisionSource.FAIL_OPEN, allow.decideWithSource("k", 1, verdict));
        assertTrue(verdict.allowed);
      }
      assertFalse(backend.isConnected());
    }
  }

  /**
   * The rules file's {@code tls:}, {@code refusal-cache:} and {@code lease-tokens:} reach the
   * connection and the stores.
   */
  @Test
  void theRulesFileConnectsOverTlsWithTheRefusalCache() throws Exception {
    String yaml =
        String.join(
            "\n",
            "backend: redis",
            "redis:",
            "  uri: rediss://localhost:" + server.tlsPort(),
            "  timeout: 5s",
            "  refusal-cache: true",
            "  lease-tokens: 5",
            "  tls:",
            "    ca-file: " + certificates.caCertificate(),
            "rules:",
            "  - name: " + RedisTestSupport.uniqueRule("tls-file"),
            "    key: ip",
            "    limit: 1",
            "    period: 10d",
            "    on-failure: deny",
            "");
    RulesConfig config = RulesFileParser.parse(yaml, "tls.yaml");
    RuleSet rules = new RuleSetFactory(Clock.system()).build(config, null);
    Rule rule = rules.get(0);
    FailurePolicyStore store = (FailurePolicyStore) rule.store();
    try {
      assertTrue(store.decider() instanceof RefusalCacheStore, String.valueOf(store.decider()));
      RefusalCacheStore cache = (RefusalCacheStore) store.decider();
      assertTrue(cache.shared() instanceof TokenLeaseStore, "leases between the cache and Redis");
      assertEquals(5, ((TokenLeaseStore) cache.shared()).leaseTokens());
      assertTrue(store.primary().backend().awaitConnected(Duration.ofSeconds(60)));
      Verdict verdict = new Verdict();
      assertEquals(DecisionSource.BACKEND, store.decideWithSource("10.0.0.1", 1, verdict));
      assertTrue(verdict.allowed);
      for (int i = 0; i < 100; i++) {
        assertEquals(DecisionSource.BACKEND, store.decideWithSource("10.0.0.1", 1, verdict));
        assertFalse(verdict.allowed);
      }
      assertEquals(2, cache.passedOn(), "Redis was asked twice: the allowed and the first refusal");
      assertEquals(99, cache.answeredLocally());
    } finally {
      store.primary().backend().close();
    }
  }

  /** Decides until the failure reported is the connection's, not "no answer yet"; returns it. */
  private static String awaitConnectFailure(RedisGcraStore store) {
    Verdict verdict = new Verdict();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    String last = "";
    while (System.nanoTime() - deadline < 0) {
      try {
        store.decide("k", 1, verdict);
        throw new AssertionError("decided without a connection: " + verdict);
      } catch (BackendUnavailableException e) {
        last = e.getMessage();
        if (!last.contains("no answer yet")) {
          return last;
        }
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
    throw new AssertionError("no connection failure reported in 30 s; last: " + last);
  }
}
