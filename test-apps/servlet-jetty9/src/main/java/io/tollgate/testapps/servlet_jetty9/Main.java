package io.tollgate.testapps.servlet_jetty9;

import java.util.EnumSet;
import javax.servlet.DispatcherType;
import javax.servlet.http.HttpServlet;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.ErrorPageErrorHandler;
import org.eclipse.jetty.servlet.FilterHolder;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;

/**
 * Plain HttpServlets on embedded Jetty 9.4 (javax.servlet 3.1), with no default servlet, as the
 * Tomcat apps: a path no servlet is mapped to is answered 404 by Jetty's servlet handler itself.
 * Listens on $PORT (default 8080) at $HOST (default 127.0.0.1).
 */
public final class Main {
    static final String NAME = "servlet-jetty9";

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        // Jetty's start-up chatter off (its own logger, on stderr); warnings stay.
        System.setProperty("org.eclipse.jetty.LEVEL", "WARN");
        int port = Integer.parseInt(env("PORT", "8080"));
        String host = env("HOST", "127.0.0.1");

        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost(host);
        connector.setPort(port);
        server.addConnector(connector);

        ServletContextHandler ctx = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
        ctx.setContextPath("/");
        // Jetty would otherwise map its Default404Servlet to "/", a servlet the agent sees anyway.
        ctx.getServletHandler().setEnsureDefaultServlet(false);
        servlet(ctx, "hello", new Servlets.Hello(), false, "/hello");
        servlet(ctx, "login", new Servlets.Login(), false, "/login");
        servlet(ctx, "echo", new Echo(), true, "/echo")
                .getRegistration().setMultipartConfig(new javax.servlet.MultipartConfigElement(""));
        servlet(ctx, "orders", new Servlets.Orders(), false, "/api/orders/*");
        servlet(ctx, "search", new Servlets.Search(), false, "/api/search");
        servlet(ctx, "export", new Servlets.Export(), false, "/api/export");
        servlet(ctx, "health", new Servlets.Health(), false, "/health");
        servlet(ctx, "whoami", new Servlets.WhoAmI(), false, "/whoami");
        servlet(ctx, "asyncHello", new Servlets.AsyncHello(), true, "/async/hello");
        servlet(ctx, "asyncDispatch", new Servlets.AsyncDispatchHello(), true, "/async/dispatch");
        servlet(ctx, "forwardHello", new Servlets.ForwardHello(), false, "/forward/hello");
        servlet(ctx, "includeHello", new Servlets.IncludeHello(), false, "/include/hello");
        servlet(ctx, "boom", new Servlets.Boom(), false, "/error/boom");
        servlet(ctx, "errorPage", new Servlets.ErrorPageServlet(), true, Servlets.ERROR_PAGE);

        // An uncaught exception is answered by an ERROR dispatch to the error page (status 500).
        ErrorPageErrorHandler errors = new ErrorPageErrorHandler();
        errors.addErrorPage(Throwable.class, Servlets.ERROR_PAGE);
        ctx.setErrorHandler(errors);

        // The application's own filter, on every dispatch type, as many real apps have one.
        FilterHolder filter = new FilterHolder(new TestUserFilter());
        filter.setName("testUser");
        filter.setAsyncSupported(true);
        ctx.addFilter(filter, "/*", EnumSet.allOf(DispatcherType.class));

        server.setHandler(ctx);
        server.start();
        System.out.println(NAME + " listening on port " + connector.getLocalPort());
        System.out.flush();
        server.join();
    }

    private static ServletHolder servlet(ServletContextHandler ctx, String name, HttpServlet servlet, boolean async,
            String pattern) {
        ServletHolder holder = new ServletHolder(name, servlet);
        holder.setAsyncSupported(async);
        ctx.addServlet(holder, pattern);
        return holder;
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value.trim();
    }
}
