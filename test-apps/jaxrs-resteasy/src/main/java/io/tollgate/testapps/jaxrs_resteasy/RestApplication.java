package io.tollgate.testapps.jaxrs_resteasy;

import jakarta.ws.rs.core.Application;
import java.util.Set;

/** The JAX-RS application RESTEasy's dispatcher serves. */
public final class RestApplication extends Application {
    @Override
    public Set<Class<?>> getClasses() {
        return Set.of(Endpoints.class, Echo.class, RewritingExceptionMapper.class);
    }
}
