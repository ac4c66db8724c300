package io.tollgate.testapps.servlet_jakarta;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import org.apache.catalina.Context;
import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.ErrorPage;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;

/**
 * Plain HttpServlets on embedded Tomcat 10.1 (jakarta.servlet 6).
 * Listens on $PORT (default 8080) at $HOST (default 127.0.0.1).
 */
public final class Main {
    static final String NAME = "servlet-jakarta";

    /** Strong references, so that java.util.logging keeps the levels set here. */
    private static final List<Logger> LOGGERS = new ArrayList<>();

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        quietLogging();
        int port = Integer.parseInt(env("PORT", "8080"));
        String host = env("HOST", "127.0.0.1");

        Path base = Files.createTempDirectory(NAME + "-tomcat");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(base), "delete-tomcat-base"));
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(base.toString());
        Connector connector = new Connector("HTTP/1.1");
        connector.setPort(port);
        connector.setProperty("address", host);
        tomcat.setConnector(connector);
        tomcat.getHost().setAutoDeploy(false);

        Context ctx = tomcat.addContext("", base.toString());
        servlet(ctx, "hello", new Servlets.Hello(), false, "/hello");
        servlet(ctx, "login", new Servlets.Login(), false, "/login");
        Wrapper echo = servlet(ctx, "echo", new Echo(), true, "/echo");
        echo.setMultipartConfigElement(new jakarta.servlet.MultipartConfigElement(""));
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
        // For the adaptive-concurrency benchmark: a bounded resource and its slow-down switch.
        servlet(ctx, "pool", new Pool.Resource(), false, Pool.PATH);
        servlet(ctx, "poolAdmin", new Pool.Admin(), false, Pool.ADMIN_PATH);

        // An uncaught exception is answered by an ERROR dispatch to the error page (status 500).
        ErrorPage errorPage = new ErrorPage();
        errorPage.setExceptionType(Throwable.class.getName());
        errorPage.setLocation(Servlets.ERROR_PAGE);
        ctx.addErrorPage(errorPage);

        // For the end-to-end benchmark only: a hand-written Bucket4j filter in front of everything.
        // Its class is not even loaded otherwise (PROPERTY is a constant, compiled in here), so
        // that the agent's log, which names every Filter it instruments, does not make the app
        // look as if it had a limiter of its own.
        String bucket4j = System.getProperty(Bucket4jRateLimitFilter.PROPERTY);
        if (bucket4j != null && !bucket4j.isBlank()) {
            filter(ctx, "bucket4j", Bucket4jRateLimitFilter.fromSystemProperty(), "/*");
        }
        // For the adaptive-concurrency benchmark only: Netflix's concurrency-limits filter on the
        // pool endpoint, not loaded either unless asked for.
        String netflix = System.getProperty(NetflixConcurrencyLimitFilter.PROPERTY);
        if (netflix != null && !netflix.isBlank()) {
            filter(ctx, "netflixConcurrencyLimit", NetflixConcurrencyLimitFilter.fromSystemProperty(), Pool.PATH);
        }
        // The application's own filter, on every dispatch type, as many real apps have one.
        filter(ctx, "testUser", new TestUserFilter(), "/*");

        tomcat.start();
        System.out.println(NAME + " listening on port " + connector.getLocalPort());
        System.out.flush();
        tomcat.getServer().await();
    }

    private static Wrapper servlet(Context ctx, String name, HttpServlet servlet, boolean async, String pattern) {
        Wrapper wrapper = Tomcat.addServlet(ctx, name, servlet);
        wrapper.setAsyncSupported(async);
        ctx.addServletMappingDecoded(pattern, name);
        return wrapper;
    }

    private static void filter(Context ctx, String name, Filter filter, String pattern) {
        FilterDef def = new FilterDef();
        def.setFilterName(name);
        def.setFilter(filter);
        def.setFilterClass(filter.getClass().getName());
        def.setAsyncSupported("true");
        ctx.addFilterDef(def);
        FilterMap map = new FilterMap();
        map.setFilterName(name);
        map.addURLPattern(pattern);
        for (DispatcherType type : DispatcherType.values()) {
            map.setDispatcher(type.name());
        }
        ctx.addFilterMap(map);
    }

    private static void deleteTree(Path dir) {
        try (java.util.stream.Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (java.io.IOException | RuntimeException e) {
            // best effort: it is a temporary directory
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value.trim();
    }

    /** Tomcat's start-up chatter off; warnings stay. The deliberate /error/boom exception is not logged. */
    private static void quietLogging() {
        for (String name : new String[] {"org.apache", "org.apache.catalina", "org.apache.coyote", "org.apache.tomcat"}) {
            Logger logger = Logger.getLogger(name);
            logger.setLevel(Level.WARNING);
            LOGGERS.add(logger);
        }
        // "Creation of SecureRandom instance for session ID generation ... took [N] milliseconds": on a busy machine.
        Logger sessionIds = Logger.getLogger("org.apache.catalina.util.SessionIdGeneratorBase");
        sessionIds.setLevel(Level.SEVERE);
        LOGGERS.add(sessionIds);
        for (Handler handler : Logger.getLogger("").getHandlers()) {
            handler.setFilter(record -> !Servlets.isBoom(record.getThrown()));
        }
    }
}
