package io.tollgate.testapps.jaxrs_cxf;

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
import org.apache.cxf.jaxrs.servlet.CXFNonSpringJaxrsServlet;

/**
 * Apache CXF 4 (jakarta.ws.rs), the JAX-RS of TomEE, in a servlet container: CXF's
 * CXFNonSpringJaxrsServlet on embedded Tomcat 10.1.
 * Listens on $PORT (default 8080) at $HOST (default 127.0.0.1).
 */
public final class Main {
    static final String NAME = "jaxrs-cxf";

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

        // -Dtestapp.context=/shop deploys the application under a context path
        Context ctx = tomcat.addContext(System.getProperty("testapp.context", ""), base.toString());
        Wrapper cxf = servlet(ctx, "cxf", new CXFNonSpringJaxrsServlet(), true, "/*");
        cxf.addInitParameter("jaxrs.serviceClasses", Endpoints.class.getName() + "," + Echo.class.getName());
        cxf.addInitParameter("jaxrs.providers", RewritingExceptionMapper.class.getName());
        servlet(ctx, "forwardHello", new Servlets.ForwardHello(), false, "/forward/hello");
        servlet(ctx, "errorPage", new Servlets.ErrorPageServlet(), true, Servlets.ERROR_PAGE);

        // An uncaught exception is answered by an ERROR dispatch to the error page (status 500).
        ErrorPage errorPage = new ErrorPage();
        errorPage.setExceptionType(Throwable.class.getName());
        errorPage.setLocation(Servlets.ERROR_PAGE);
        ctx.addErrorPage(errorPage);

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

    /** Tomcat's and CXF's start-up chatter off; warnings stay. The deliberate /error/boom exception is not logged. */
    private static void quietLogging() {
        for (String name : new String[] {"org.apache", "org.apache.catalina", "org.apache.coyote", "org.apache.tomcat",
                "org.apache.cxf"}) {
            Logger logger = Logger.getLogger(name);
            logger.setLevel(Level.WARNING);
            LOGGERS.add(logger);
        }
        // "Creation of SecureRandom instance for session ID generation ... took [N] milliseconds": on a busy machine.
        Logger sessionIds = Logger.getLogger("org.apache.catalina.util.SessionIdGeneratorBase");
        sessionIds.setLevel(Level.SEVERE);
        LOGGERS.add(sessionIds);
        for (Handler handler : Logger.getLogger("").getHandlers()) {
            handler.setFilter(record -> !Endpoints.isBoom(record.getThrown()));
        }
    }
}
