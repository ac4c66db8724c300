package io.tollgate.testapps.servlet_jakarta;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.github.bucket4j.redis.lettuce.cas.LettuceBasedProxyManager;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * What a team writes by hand instead of the agent, for the end-to-end benchmark
 * (benchmarks/run-end-to-end.sh, modes bucket4j and bucket4j-caffeine): a servlet filter with one
 * Bucket4j bucket per client IP, answering 429 when it is empty, as Bucket4j's own servlet-filter
 * example does (including its X-Rate-Limit-Remaining header). Not part of the app unless
 * {@code -Dtestapp.bucket4j=lettuce} (buckets on Redis through Bucket4j's Lettuce proxy manager),
 * {@code -Dtestapp.bucket4j=map} (buckets in a ConcurrentHashMap, as most examples keep them:
 * unbounded) or {@code -Dtestapp.bucket4j=caffeine} (in a Caffeine cache bounded like Tollgate's
 * store: 100,000 keys, forgotten after a period idle) is given.
 *
 * <p>The limit is the benchmark rule's (benchmarks/e2e-rules.yaml): 1,000,000,000 per second per
 * client address on GET /hello, so it never refuses under the benchmark's load.
 *
 * <p>With {@code -Dtestapp.bucket4j.headers=draft} (mode bucket4j-draft) an allowed request gets
 * the two quota headers the agent's rule sends instead of X-Rate-Limit-Remaining, with the same
 * name, limit and window, set as strings as a hand-written filter would: the same bytes on the
 * wire as the rule, so that the two compare on the same response.
 *
 * <p>With {@code -Dtestapp.bucket4j.headers=padded} (mode bucket4j-padded of run-end-to-end.sh and
 * profile-async.sh) it sends its one X-Rate-Limit-Remaining header with the value padded ({@code
 * 999999999;} and 72 {@code x}) to the length of the two draft headers' lines (108 bytes): the
 * response the same size as the rule's, with one header to set and write instead of two, so that
 * what the two headers cost as headers is told apart from what their bytes cost on the wire.
 */
final class Bucket4jRateLimitFilter implements Filter {

  static final String PROPERTY = "testapp.bucket4j";

  private static final long LIMIT = 1_000_000_000L;
  private static final Duration PERIOD = Duration.ofSeconds(1);

  private final Function<String, Bucket> buckets;

  private Bucket4jRateLimitFilter(Function<String, Bucket> buckets) {
    this.buckets = buckets;
  }

  /** The filter the system property asks for, or null. */
  static Bucket4jRateLimitFilter fromSystemProperty() {
    String store = System.getProperty(PROPERTY);
    if (store == null || store.isBlank()) {
      return null;
    }
    Function<String, Bucket> newBucket = ip -> newBucket();
    switch (store.trim()) {
      case "map":
        ConcurrentMap<String, Bucket> map = new ConcurrentHashMap<>();
        return new Bucket4jRateLimitFilter(ip -> map.computeIfAbsent(ip, newBucket));
      case "caffeine":
        Cache<String, Bucket> cache =
            Caffeine.newBuilder()
                .maximumSize(100_000)
                .expireAfterAccess(PERIOD.toNanos(), TimeUnit.NANOSECONDS)
                .build();
        return new Bucket4jRateLimitFilter(ip -> cache.get(ip, newBucket));
      case "lettuce":
        return new Bucket4jRateLimitFilter(lettuceBuckets());
      default:
        throw new IllegalArgumentException(
            PROPERTY + " must be map, caffeine or lettuce: " + store);
    }
  }

  /**
   * Buckets on Redis through Bucket4j's Lettuce proxy manager (compare-and-swap, as its docs
   * show), at {@code -Dtestapp.bucket4j.redis} (default {@code redis://127.0.0.1:6379}); each key
   * lives 10 s after its last write, as Tollgate's token bucket keys a never-refusing rule's.
   */
  private static Function<String, Bucket> lettuceBuckets() {
    String uri = System.getProperty(PROPERTY + ".redis", "redis://127.0.0.1:6379");
    StatefulRedisConnection<byte[], byte[]> connection =
        RedisClient.create(uri).connect(ByteArrayCodec.INSTANCE);
    LettuceBasedProxyManager<byte[]> proxyManager =
        Bucket4jLettuce.casBasedBuilder(connection)
            .expirationAfterWrite(
                ExpirationAfterWriteStrategy.fixedTimeToLive(Duration.ofSeconds(10)))
            .build();
    BucketConfiguration configuration =
        BucketConfiguration.builder()
            .addLimit(Bandwidth.builder().capacity(LIMIT).refillGreedy(LIMIT, PERIOD).build())
            .build();
    return ip ->
        proxyManager
            .builder()
            .build(("bucket4j:hello:" + ip).getBytes(StandardCharsets.UTF_8), () -> configuration);
  }

  private static Bucket newBucket() {
    return Bucket.builder()
        .addLimit(Bandwidth.builder().capacity(LIMIT).refillGreedy(LIMIT, PERIOD).build())
        .build();
  }

  /**
   * The client a bucket is kept for: the peer's address, or with {@code
   * -Dtestapp.bucket4j.key=X-Client} that header's value (so that one load generator can be many
   * clients, as Tollgate's rule keyed by {@code header:X-Client} sees them).
   */
  private static String clientOf(HttpServletRequest request) {
    String header = KEY_HEADER;
    if (header != null) {
      String value = request.getHeader(header);
      return value == null ? request.getRemoteAddr() : value;
    }
    return request.getRemoteAddr();
  }

  private static final String KEY_HEADER = System.getProperty(PROPERTY + ".key");

  private static final boolean DRAFT_HEADERS =
      "draft".equals(System.getProperty(PROPERTY + ".headers"));

  private static final boolean PADDED_HEADER =
      "padded".equals(System.getProperty(PROPERTY + ".headers"));

  /** The padding that makes the one header's line as long as the draft's two (108 bytes). */
  private static final String PADDING = ";" + "x".repeat(72);

  /** The rule's policy as the agent words it: {@code "name";q=limit;w=seconds}. */
  private static final String DRAFT_POLICY =
      "\"hello-never-refuses\";q=" + LIMIT + ";w=" + PERIOD.getSeconds();

  /**
   * The draft's two headers for an allowed request: the policy, and what is left with the whole
   * seconds until one more token (at least 1, as the draft's t is whole seconds).
   */
  private static void setDraftHeaders(HttpServletResponse out, ConsumptionProbe probe) {
    long seconds = Math.max(1, (probe.getNanosToWaitForRefill() + 999_999_999L) / 1_000_000_000L);
    out.setHeader("RateLimit-Policy", DRAFT_POLICY);
    out.setHeader(
        "RateLimit",
        "\"hello-never-refuses\";r=" + probe.getRemainingTokens() + ";t=" + seconds);
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    HttpServletRequest http = (HttpServletRequest) request;
    if (!"/hello".equals(http.getRequestURI()) || !"GET".equals(http.getMethod())) {
      chain.doFilter(request, response);
      return;
    }
    HttpServletResponse out = (HttpServletResponse) response;
    ConsumptionProbe probe = buckets.apply(clientOf(http)).tryConsumeAndReturnRemaining(1);
    if (probe.isConsumed()) {
      if (DRAFT_HEADERS) {
        setDraftHeaders(out, probe);
      } else if (PADDED_HEADER) {
        out.setHeader("X-Rate-Limit-Remaining", probe.getRemainingTokens() + PADDING);
      } else {
        out.setHeader("X-Rate-Limit-Remaining", Long.toString(probe.getRemainingTokens()));
      }
      chain.doFilter(request, response);
    } else {
      long waitSeconds = TimeUnit.NANOSECONDS.toSeconds(probe.getNanosToWaitForRefill()) + 1;
      out.setHeader("X-Rate-Limit-Retry-After-Seconds", Long.toString(waitSeconds));
      out.sendError(429, "Too many requests");
    }
  }
}
