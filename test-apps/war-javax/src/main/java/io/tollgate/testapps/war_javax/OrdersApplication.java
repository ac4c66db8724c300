package io.tollgate.testapps.war_javax;

import javax.ws.rs.ApplicationPath;
import javax.ws.rs.core.Application;

/**
 * The JAX-RS application, served by a Java EE 8 server's own implementation (JAX-RS 2.1) at /api, so
 * that its resource's route is /api/orders/{id} as on the other test apps. Exact servlet mappings (/api/search, /api/export) win over its /api/*.
 */
@ApplicationPath("/api")
public class OrdersApplication extends Application {
}
