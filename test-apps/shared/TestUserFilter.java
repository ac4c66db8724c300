// The one source of every servlet test app's TestUserFilter. The build (test-apps/pom.xml, antrun
// execution "shared-sources") copies it into each app whose property shared-sources names it, in the
// app's own package and namespace (javax or jakarta), so that each app holds and registers its filter
// as its users would.
package io.tollgate.testapps.shared;

import java.io.IOException;
import java.security.Principal;
import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.FilterConfig;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletRequestWrapper;
import javax.servlet.http.HttpServletResponse;
import javax.servlet.http.HttpServletResponseWrapper;

/**
 * An application filter on /*, as many real apps have: it wraps the request and the response before
 * calling the chain. The request's user principal comes from the header X-Test-User when present
 * (standing in for container authentication).
 */
public final class TestUserFilter implements Filter {
    static final String USER_HEADER = "X-Test-User";

    // Servlet 3.1 (servlet-jetty9's Jetty 9.4) has no default init and destroy.
    @Override
    public void init(FilterConfig config) {
    }

    @Override
    public void destroy() {
    }

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
