package io.tollgate.testapps.jaxrs_jakarta;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.glassfish.grizzly.http.server.HttpServer;
import org.glassfish.jersey.grizzly2.httpserver.GrizzlyHttpServerFactory;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;

/**
 * Jersey 4 (jakarta.ws.rs) on Grizzly: no servlet API anywhere.
 * Listens on $PORT (default 8080) at $HOST (default 127.0.0.1).
 */
public final class Main {
    static final String NAME = "jaxrs-jakarta";

    /** Strong references, so that java.util.logging keeps the levels set here. */
    private static final List<Logger> LOGGERS = new ArrayList<>();

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        quietLogging();
        int port = Integer.parseInt(env("PORT", "8080"));
        String host = env("HOST", "127.0.0.1");

        ResourceConfig config = new ResourceConfig(Endpoints.class, Echo.class, TestUserFilter.class)
                .property(ServerProperties.WADL_FEATURE_DISABLE, true);
        URI uri = new URI("http", null, host, port, "/", null, null);
        HttpServer server = GrizzlyHttpServerFactory.createHttpServer(uri, config, true);
        Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow, "stop-http-server"));

        int actual = server.getListeners().iterator().next().getPort();
        System.out.println(NAME + " listening on port " + actual);
        System.out.flush();
        Thread.currentThread().join();
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value.trim();
    }

    /** Grizzly's and Jersey's start-up chatter off; warnings stay. The deliberate /error/boom exception is not logged. */
    private static void quietLogging() {
        for (String name : new String[] {"org.glassfish", "org.glassfish.grizzly", "org.glassfish.jersey"}) {
            Logger logger = Logger.getLogger(name);
            logger.setLevel(Level.WARNING);
            LOGGERS.add(logger);
        }
        for (Handler handler : Logger.getLogger("").getHandlers()) {
            handler.setFilter(record -> !Endpoints.isBoom(record.getThrown()));
        }
    }
}
