package io.tollgate.testapps.jaxrs_jakarta;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.ext.Provider;
import java.security.Principal;

/**
 * The application's own request filter, the JAX-RS way (there is no servlet API here): the request's
 * security context names the user in the header X-Test-User when present (standing in for authentication).
 */
@Provider
@PreMatching
public final class TestUserFilter implements ContainerRequestFilter {
    static final String USER_HEADER = "X-Test-User";

    @Override
    public void filter(ContainerRequestContext request) {
        String user = request.getHeaderString(USER_HEADER);
        if (user == null || user.isEmpty()) {
            return;
        }
        SecurityContext original = request.getSecurityContext();
        Principal principal = () -> user;
        request.setSecurityContext(new SecurityContext() {
            @Override
            public Principal getUserPrincipal() {
                return principal;
            }

            @Override
            public boolean isUserInRole(String role) {
                return false;
            }

            @Override
            public boolean isSecure() {
                return original != null && original.isSecure();
            }

            @Override
            public String getAuthenticationScheme() {
                return "X-Test-User";
            }
        });
    }
}
