package io.tollgate.testapps.war_jakarta;

import java.io.IOException;
import java.security.Principal;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

/**
 * An application filter on /*, as many real apps have: it wraps the request and the response before
 * calling the chain. The request's user principal comes from the header X-Test-User when present
 * (standing in for container authentication).
 */
public final class TestUserFilter implements Filter {
    static final String USER_HEADER = "X-Test-User";

    @Override
    public void doFilter(ServletRequest req, ServletResponse resp, FilterChain chain)
            throws IOException, ServletException {
        if (req instanceof HttpServletRequest && resp instanceof HttpServletResponse) {
            chain.doFilter(new TestUserRequest((HttpServletRequest) req),
                    new HttpServletResponseWrapper((HttpServletResponse) resp));
        } else {
            chain.doFilter(req, resp);
        }
    }

    static final class TestUserRequest extends HttpServletRequestWrapper {
        TestUserRequest(HttpServletRequest request) {
            super(request);
        }

        @Override
        public Principal getUserPrincipal() {
            String user = getHeader(USER_HEADER);
            if (user != null && !user.isEmpty()) {
                return new TestPrincipal(user);
            }
            return super.getUserPrincipal();
        }
    }

    static final class TestPrincipal implements Principal {
        private final String name;

        TestPrincipal(String name) {
            this.name = name;
        }

        @Override
        public String getName() {
            return name;
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
