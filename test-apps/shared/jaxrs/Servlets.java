// The one source of the plain servlets of jaxrs-javax, jaxrs-resteasy and jaxrs-cxf.
// The build (test-apps/pom.xml, antrun execution "shared-sources") copies it into each app whose
// property shared-sources names it, in the app's own package and namespace (javax or jakarta).
package io.tollgate.testapps.shared;

import java.io.IOException;
import javax.servlet.DispatcherType;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/** Plain servlets beside Jersey's, for dispatches into the JAX-RS resources. */
final class Servlets {
    static final String ERROR_PAGE = "/error";

    private Servlets() {
    }

    /** GET /forward/hello: forwards to /hello, served by Jersey. */
    static final class ForwardHello extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException, ServletException {
            req.getRequestDispatcher("/hello").forward(req, resp);
        }
    }

    /** The error page the container dispatches to (ERROR dispatch) after an uncaught exception. */
    static final class ErrorPageServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            if (req.getDispatcherType() != DispatcherType.ERROR) {
                resp.sendError(HttpServletResponse.SC_NOT_FOUND);
                return;
            }
            Object status = req.getAttribute("javax.servlet.error.status_code");
            resp.setContentType("text/plain;charset=UTF-8");
            resp.getWriter().write("error " + (status == null ? 500 : status) + "\n");
        }
    }
}
