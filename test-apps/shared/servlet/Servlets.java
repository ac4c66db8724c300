// The one source of the endpoints of servlet-javax, servlet-jakarta, servlet-jetty9, war-javax and
// war-jakarta.
// The build (test-apps/pom.xml, antrun execution "shared-sources") copies it into each app whose
// property shared-sources names it, in the app's own package and namespace (javax or jakarta).
package io.tollgate.testapps.shared;

import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.servlet.AsyncContext;
import javax.servlet.DispatcherType;
import javax.servlet.ServletException;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * The endpoints. Every body is text/plain and ends in a newline. Public, as the servlets that a
 * web.xml names must be: the WARs map them in WEB-INF/web.xml, the other apps in their Main. In a
 * WAR, /api/orders/{id} is the JAX-RS resource OrdersResource, and Orders stands in for it only
 * where the container has no JAX-RS implementation (see JaxRsFallback).
 */
public final class Servlets {
    static final String ERROR_PAGE = "/error";

    private static final ExecutorService ASYNC = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "async-hello");
        t.setDaemon(true);
        return t;
    });

    private Servlets() {
    }

    static void text(ServletResponse resp, String body) throws IOException {
        resp.setContentType("text/plain;charset=UTF-8");
        resp.getWriter().write(body + "\n");
    }

    /** The exception /error/boom throws on purpose. */
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

    /** GET /hello, POST /hello. */
    public static final class Hello extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            text(resp, "hello");
        }

        @Override
        protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            text(resp, "hello posted");
        }
    }

    /** POST /login: 401 "wrong password" when the password parameter is "wrong"; else 200, whatever else is sent. */
    public static final class Login extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            if ("wrong".equals(req.getParameter("password"))) {
                resp.setStatus(401);
                text(resp, "wrong password");
                return;
            }
            text(resp, "logged in");
        }
    }

    /** GET /api/orders/{id} (in a WAR, on a container without JAX-RS: standalone Tomcat, Jetty). */
    public static final class Orders extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            String info = req.getPathInfo();
            String id = info == null ? "" : info.substring(1);
            if (id.isEmpty() || id.contains("/")) {
                resp.sendError(HttpServletResponse.SC_NOT_FOUND);
                return;
            }
            text(resp, "order " + id);
        }
    }

    /** GET /api/search. */
    public static final class Search extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            text(resp, "search results");
        }
    }

    /**
     * GET /api/export[?cost=N][&ratelimit=V]: with cost, answers X-Tollgate-Cost: N; with ratelimit,
     * sets its own RateLimit: V (an app that reports its quota itself, over the agent's).
     */
    public static final class Export extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            String cost = req.getParameter("cost");
            if (cost != null) {
                resp.setHeader("X-Tollgate-Cost", cost);
            }
            String rateLimit = req.getParameter("ratelimit");
            if (rateLimit != null) {
                resp.setHeader("RateLimit", rateLimit);
            }
            text(resp, "export");
        }
    }

    /** GET /health. */
    public static final class Health extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            text(resp, "ok");
        }
    }

    /** GET /whoami: the user principal the application sees (see TestUserFilter). */
    public static final class WhoAmI extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            java.security.Principal user = req.getUserPrincipal();
            text(resp, user == null ? "anonymous" : "user " + user.getName());
        }
    }

    /** GET /async/hello: startAsync, completed from another thread. */
    public static final class AsyncHello extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
            AsyncContext async = req.startAsync();
            ASYNC.execute(() -> {
                try {
                    text(async.getResponse(), "hello async");
                } catch (IOException e) {
                    // the client went away
                } finally {
                    async.complete();
                }
            });
        }
    }

    /**
     * GET /async/dispatch: startAsync, then dispatched from another thread to /hello, which
     * answers (Tomcat runs its host valve again for the dispatch).
     */
    public static final class AsyncDispatchHello extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
            AsyncContext async = req.startAsync();
            ASYNC.execute(() -> async.dispatch("/hello"));
        }
    }

    /** GET /forward/hello: forwards to /hello. */
    public static final class ForwardHello extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException, ServletException {
            req.getRequestDispatcher("/hello").forward(req, resp);
        }
    }

    /** GET /include/hello: its own response, with /hello's output included. */
    public static final class IncludeHello extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException, ServletException {
            resp.setContentType("text/plain;charset=UTF-8");
            req.getRequestDispatcher("/hello").include(req, resp);
        }
    }

    /** GET /error/boom: throws; the container answers 500. */
    public static final class Boom extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
            throw new BoomException();
        }
    }

    /** The error page the container dispatches to (ERROR dispatch) after an uncaught exception. */
    public static final class ErrorPageServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            if (req.getDispatcherType() != DispatcherType.ERROR) {
                resp.sendError(HttpServletResponse.SC_NOT_FOUND);
                return;
            }
            Object status = req.getAttribute("javax.servlet.error.status_code");
            text(resp, "error " + (status == null ? 500 : status));
        }
    }
}
