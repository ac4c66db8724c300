// The one source of OrdersResource of war-javax and war-jakarta.
// The build (test-apps/pom.xml, antrun execution "shared-sources") copies it into each app whose
// property shared-sources names it, in the app's own package and namespace (javax or jakarta).
package io.tollgate.testapps.shared;

import javax.ws.rs.GET;
import javax.ws.rs.Path;
import javax.ws.rs.PathParam;
import javax.ws.rs.Produces;

/** GET /api/orders/{id}: the route template a rule can name. */
@Path("orders/{id}")
public class OrdersResource {
    @GET
    @Produces("text/plain;charset=UTF-8")
    public String order(@PathParam("id") String id) {
        return "order " + id + "\n";
    }
}
