package io.tollgate.testapps.servlet_jakarta;

import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limiter.AbstractLimiter;
import com.netflix.concurrency.limits.limiter.AbstractPartitionedLimiter;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;

/**
 * Netflix's concurrency-limits servlet filter, as its users add it, for the adaptive-concurrency
 * benchmark (benchmarks/run-adaptive.sh, configuration netflix): one limiter shared by every
 * request of GET /api/pool, answering 429 when the limit is reached. Not part of the app unless
 * {@code -Dtestapp.netflix=gradient2} (the Gradient2 limit at its defaults: initial 20, min 20, max
 * 200) or {@code -Dtestapp.netflix=vegas} (no limit given to the builder: its default, Vegas) is
 * given.
 *
 * <p>The library's servlet modules ({@code concurrency-limits-servlet-jakarta}, {@code
 * concurrency-limits-servlet}) are not served by the Maven registry this project builds from; its
 * core ({@code concurrency-limits-core}) is. So this class is the servlet module's filter and
 * builder rebuilt on the core's public API, doing what they do: the builder is an {@code
 * AbstractPartitionedLimiter.Builder} with no partition (so {@code build()} gives a {@code
 * SimpleLimiter}); the filter acquires before the chain, calls {@code onSuccess()} after it
 * (whatever the status), {@code onIgnore()} when it throws, and answers 429 "Concurrency limit
 * exceeded" when no permit is given.
 */
final class NetflixConcurrencyLimitFilter implements Filter {

    static final String PROPERTY = "testapp.netflix";

    private final Limiter<HttpServletRequest> limiter;

    private NetflixConcurrencyLimitFilter(Limiter<HttpServletRequest> limiter) {
        this.limiter = limiter;
    }

    /** The filter the system property asks for, or null. */
    static NetflixConcurrencyLimitFilter fromSystemProperty() {
        String limit = System.getProperty(PROPERTY);
        if (limit == null || limit.isBlank()) {
            return null;
        }
        ServletLimiterBuilder builder = new ServletLimiterBuilder();
        switch (limit.trim()) {
            case "gradient2" -> builder.limit(Gradient2Limit.newBuilder().build());
            case "vegas" -> { } // the builder's own default: VegasLimit.newDefault()
            default -> throw new IllegalArgumentException(PROPERTY + " must be gradient2 or vegas: " + limit);
        }
        Limiter<HttpServletRequest> limiter = builder.build();
        if (limiter instanceof AbstractLimiter<?> observable) {
            Pool.netflixLimit = observable::getLimit;
        }
        return new NetflixConcurrencyLimitFilter(limiter);
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        Optional<Limiter.Listener> listener = limiter.acquire((HttpServletRequest) request);
        if (listener.isEmpty()) {
            HttpServletResponse out = (HttpServletResponse) response;
            out.setStatus(429);
            out.getWriter().print("Concurrency limit exceeded");
            return;
        }
        try {
            chain.doFilter(request, response);
            listener.get().onSuccess();
        } catch (IOException | ServletException | RuntimeException e) {
            listener.get().onIgnore();
            throw e;
        }
    }

    /** The servlet module's builder without its partition helpers: one limit for all. */
    static final class ServletLimiterBuilder
            extends AbstractPartitionedLimiter.Builder<ServletLimiterBuilder, HttpServletRequest> {
        @Override
        protected ServletLimiterBuilder self() {
            return this;
        }
    }
}
