package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.testing.redis.RedisBinaries;
import io.tollgate.testing.redis.RedisProcess;
import io.tollgate.testing.redis.TestCertificates;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged agent (its relocated Lettuce and Netty) in an app, on a Redis reached with
 * {@code rediss://} and a private CA given by {@code tls.ca-file}, with {@code refusal-cache: true}:
 * the limit holds, and refusals carry their Retry-After and quota headers whether Redis or the
 * cache answered them.
 */
class RedisTlsAppIT {

  @TempDir Path dir;

  @Test
  void anAppLimitedOverTlsWithTheRefusalCache() throws Exception {
    Path binary = RedisBinaries.onPath() != null ? RedisBinaries.onPath() : RedisBinaries.embedded();
    assertTrue(binary != null, "no redis-server binary: install redis-server");
    TestCertificates certificates = TestCertificates.create("DNS:localhost");
    try (RedisProcess redis =
        RedisProcess.startWithTls(
            binary, certificates.serverCertificate(), certificates.serverKey(),
            certificates.caCertificate())) {
      String rule = "tls-" + UUID.randomUUID().toString().substring(0, 8);
      Path rules =
          RulesFiles.write(
              dir,
              "tls.yaml",
              "backend: redis",
              "redis:",
              "  uri: rediss://localhost:" + redis.tlsPort(),
              "  timeout: 2s",
              "  refusal-cache: true",
              "  tls:",
              "    ca-file: " + certificates.caCertificate(),
              "rules:",
              "  - name: " + rule,
              "    match:",
              "      path: /hello",
              "      methods: [GET]",
              "    key: global",
              "    limit: 3",
              "    period: 1h",
              "    on-failure: deny");
      try (ForkedApp app = ForkedApp.app("servlet-jakarta").withAgent("config=" + rules).start()) {
        // The connection is made in the background; before it, on-failure: deny would answer.
        app.awaitOutput("connected to redis rediss://localhost", Duration.ofSeconds(60));
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
          HttpResponse<String> response = app.get("/hello");
          statuses.add(response.statusCode());
          if (response.statusCode() == 429) {
            long retryAfter = Long.parseLong(response.headers().firstValue("Retry-After").orElse("0"));
            assertTrue(retryAfter > 0 && retryAfter <= 1200, "Retry-After " + retryAfter);
            assertTrue(response.headers().firstValue("RateLimit").isPresent(),
                "quota headers on a refusal: it is Redis's quota, not a failure");
          }
        }
        assertEquals(List.of(200, 200, 200, 429, 429, 429, 429, 429, 429, 429), statuses);
        ServletAppsIT.assertAgentLogClean(app);
      }
    }
  }
}
