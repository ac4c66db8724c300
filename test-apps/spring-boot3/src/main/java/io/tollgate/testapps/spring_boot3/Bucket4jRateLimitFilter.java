package io.tollgate.testapps.spring_boot3;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * What a Spring team writes by hand instead of the agent, for the end-to-end benchmark
 * (benchmarks/run-end-to-end.sh, mode bucket4j): the usual Spring Boot recipe, a
 * {@code OncePerRequestFilter} bean first in the chain with one Bucket4j bucket per client IP in a
 * map, answering 429 when it is empty. Only with {@code -Dtestapp.bucket4j=map}.
 *
 * <p>The limit is the benchmark rule's (benchmarks/e2e-rules.yaml): 1,000,000,000 per second per
 * client address on GET /hello, so it never refuses under the benchmark's load.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
@ConditionalOnProperty(name = "testapp.bucket4j", havingValue = "map")
public class Bucket4jRateLimitFilter extends OncePerRequestFilter {

    private static final long LIMIT = 1_000_000_000L;

    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !"/hello".equals(request.getRequestURI()) || !"GET".equals(request.getMethod());
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response,
            FilterChain chain) throws ServletException, IOException {
        Bucket bucket = buckets.computeIfAbsent(request.getRemoteAddr(), ip -> Bucket.builder()
                .addLimit(Bandwidth.builder().capacity(LIMIT).refillGreedy(LIMIT, Duration.ofSeconds(1)).build())
                .build());
        ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
        if (probe.isConsumed()) {
            response.setHeader("X-Rate-Limit-Remaining", Long.toString(probe.getRemainingTokens()));
            chain.doFilter(request, response);
        } else {
            long waitSeconds = TimeUnit.NANOSECONDS.toSeconds(probe.getNanosToWaitForRefill()) + 1;
            response.setHeader("Retry-After", Long.toString(waitSeconds));
            response.sendError(HttpStatus.TOO_MANY_REQUESTS.value(), "Too many requests");
        }
    }
}
