// The one source of RewritingExceptionMapper of jaxrs-resteasy and jaxrs-cxf.
// The build (test-apps/pom.xml, antrun execution "shared-sources") copies it into each app whose
// property shared-sources names it, in the app's own package and namespace (javax or jakarta).
package io.tollgate.testapps.shared;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * An application's mapper that rewrites every WebApplicationException into its own answer, as
 * some applications do: a refusal made as such an exception would reach clients as this 418.
 */
@Provider
public final class RewritingExceptionMapper implements ExceptionMapper<WebApplicationException> {
    @Override
    public Response toResponse(WebApplicationException exception) {
        return Response.status(418).entity("mapped by the application\n").type(Endpoints.TEXT).build();
    }
}
