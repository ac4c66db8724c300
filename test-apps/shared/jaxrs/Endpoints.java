// The one source of the endpoints of jaxrs-javax, jaxrs-jakarta, jaxrs-resteasy and jaxrs-cxf.
// The build (test-apps/pom.xml, antrun execution "shared-sources") copies it into each app whose
// property shared-sources names it, in the app's own package and namespace (javax or jakarta).
package io.tollgate.testapps.shared;

import javax.ws.rs.GET;
import javax.ws.rs.POST;
import javax.ws.rs.Path;
import javax.ws.rs.PathParam;
import javax.ws.rs.Produces;
import javax.ws.rs.QueryParam;
import javax.ws.rs.container.AsyncResponse;
import javax.ws.rs.container.Suspended;
import javax.ws.rs.core.Context;
import javax.ws.rs.core.Response;
import javax.ws.rs.core.SecurityContext;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** The endpoints. Every body is text/plain and ends in a newline. */
@Path("/")
@Produces(Endpoints.TEXT)
public class Endpoints {
    static final String TEXT = "text/plain;charset=UTF-8";

    private static final ExecutorService ASYNC = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "async-hello");
        t.setDaemon(true);
        return t;
    });

    @GET
    @Path("hello")
    public String hello() {
        return "hello\n";
    }

    @POST
    @Path("hello")
    public String helloPosted() {
        return "hello posted\n";
    }

    /** 401 "wrong password" when the password query parameter is "wrong"; else 200, whatever else is sent. */
    @POST
    @Path("login")
    public Response login(@QueryParam("password") String password) {
        if ("wrong".equals(password)) {
            return Response.status(401).entity("wrong password\n").type(TEXT).build();
        }
        return Response.ok("logged in\n", TEXT).build();
    }

    @GET
    @Path("api/orders/{id}")
    public String order(@PathParam("id") String id) {
        return "order " + id + "\n";
    }

    @GET
    @Path("api/search")
    public String search() {
        return "search results\n";
    }

    /** With ?cost=N, answers X-Tollgate-Cost: N. */
    @GET
    @Path("api/export")
    public Response export(@QueryParam("cost") String cost) {
        Response.ResponseBuilder ok = Response.ok("export\n", TEXT);
        if (cost != null) {
            ok.header("X-Tollgate-Cost", cost);
        }
        return ok.build();
    }

    @GET
    @Path("health")
    public String health() {
        return "ok\n";
    }

    /** The user principal the application sees (see TestUserFilter). */
    @GET
    @Path("whoami")
    public String whoami(@Context SecurityContext security) {
        java.security.Principal user = security.getUserPrincipal();
        return (user == null ? "anonymous" : "user " + user.getName()) + "\n";
    }

    /** Suspended, resumed from another thread. */
    @GET
    @Path("async/hello")
    public void asyncHello(@Suspended AsyncResponse response) {
        ASYNC.execute(() -> response.resume(Response.ok("hello async\n", TEXT).build()));
    }

    /**
     * Throws; unmapped, so it reaches the servlet container, whose error page answers 500 (on
     * jaxrs-jakarta, with no servlet container, Jersey answers 500).
     */
    @GET
    @Path("error/boom")
    public String boom() {
        throw new BoomException();
    }

    /** The exception GET /error/boom throws on purpose. */
    static final class BoomException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BoomException() {
            super("boom");
        }
    }

    static boolean isBoom(Throwable t) {
        for (int i = 0; t != null && i < 10; i++, t = t.getCause()) {
            if (t instanceof BoomException) {
                return true;
            }
        }
        return false;
    }
}
