// The one source of JaxRsFallback of war-javax and war-jakarta.
// The build (test-apps/pom.xml, antrun execution "shared-sources") copies it into each app whose
// property shared-sources names it, in the app's own package and namespace (javax or jakarta).
package io.tollgate.testapps.shared;

import javax.servlet.ServletContext;
import javax.servlet.ServletContextEvent;
import javax.servlet.ServletContextListener;

/**
 * Serves /api/orders/{id} with a plain servlet where the container has no JAX-RS implementation
 * (standalone Tomcat and Jetty have none, and the WAR brings none: the API is provided by the server).
 * Where JAX-RS is there, the server maps {@link OrdersApplication} to /api/* itself and this does
 * nothing, since a servlet on /api/orders/* would hide the resource.
 */
public final class JaxRsFallback implements ServletContextListener {
    static final String JAX_RS_APPLICATION = "javax.ws.rs.core.Application";

    @Override
    public void contextInitialized(ServletContextEvent event) {
        ServletContext ctx = event.getServletContext();
        if (!hasJaxRs(ctx.getClassLoader())) {
            ctx.addServlet("orders", new Servlets.Orders()).addMapping("/api/orders/*");
        }
    }

    private static boolean hasJaxRs(ClassLoader loader) {
        try {
            Class.forName(JAX_RS_APPLICATION, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
