package io.tollgate.testapps.war_jakarta;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/**
 * The JAX-RS application, served by the server's own implementation (RESTEasy on WildFly and Open
 * Liberty, Jersey on Payara, CXF on TomEE) at /api, so that its resource's route is /api/orders/{id}
 * as on the other test apps. Exact servlet mappings (/api/search, /api/export) win over its /api/*.
 */
@ApplicationPath("/api")
public class OrdersApplication extends Application {
}
