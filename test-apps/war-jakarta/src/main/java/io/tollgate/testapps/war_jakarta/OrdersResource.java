package io.tollgate.testapps.war_jakarta;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;

/** GET /api/orders/{id}: the route template a rule can name. */
@Path("orders/{id}")
public class OrdersResource {
    @GET
    @Produces("text/plain;charset=UTF-8")
    public String order(@PathParam("id") String id) {
        return "order " + id + "\n";
    }
}
