// The one source of OrdersApplication of war-javax and war-jakarta.
// The build (test-apps/pom.xml, antrun execution "shared-sources") copies it into each app whose
// property shared-sources names it, in the app's own package and namespace (javax or jakarta).
package io.tollgate.testapps.shared;

import javax.ws.rs.ApplicationPath;
import javax.ws.rs.core.Application;

/**
 * The JAX-RS application, served by the server's own implementation (JAX-RS 2.1 for war-javax, 3.1
 * for war-jakarta) at /api, so that its resource's route is /api/orders/{id} as on the other test
 * apps. Exact servlet mappings (/api/search, /api/export) win over its /api/*.
 */
@ApplicationPath("/api")
public class OrdersApplication extends Application {
}
