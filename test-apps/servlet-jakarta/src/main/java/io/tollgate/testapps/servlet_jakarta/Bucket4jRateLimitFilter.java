package io.tollgate.testapps.servlet_jakarta;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
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
 * {@code -Dtestapp.bucket4j=map} (buckets in a ConcurrentHashMap, as most examples keep them:
 * unbounded) or {@code -Dtestapp.bucket4j=caffeine} (in a Caffeine cache bounded like Tollgate's
 * store: 100,000 keys, forgotten after a period idle) is given.
 *
 * <p>The limit is the benchmark rule's (benchmarks/e2e-rules.yaml): 1,000,000,000 per second per
 * client address on GET /hello, so it never refuses under the benchmark's load.
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
      default:
        throw new IllegalArgumentException(PROPERTY + " must be map or caffeine: " + store);
    }
  }

  private static Bucket newBucket() {
    return Bucket.builder()
        .addLimit(Bandwidth.builder().capacity(LIMIT).refillGreedy(LIMIT, PERIOD).build())
        .build();
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
    ConsumptionProbe probe = buckets.apply(request.getRemoteAddr()).tryConsumeAndReturnRemaining(1);
    if (probe.isConsumed()) {
      out.setHeader("X-Rate-Limit-Remaining", Long.toString(probe.getRemainingTokens()));
      chain.doFilter(request, response);
    } else {
      long waitSeconds = TimeUnit.NANOSECONDS.toSeconds(probe.getNanosToWaitForRefill()) + 1;
      out.setHeader("X-Rate-Limit-Retry-After-Seconds", Long.toString(waitSeconds));
      out.sendError(429, "Too many requests");
    }
  }
}
