package io.tollgate.testapps.war_javax;

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
