package io.tollgate.testapps.spring_boot4;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.EnumSet;
import jakarta.servlet.DispatcherType;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;

/**
 * Spring Boot 4 with Spring MVC 7 (jakarta). Listens on $PORT (default 8080) at $HOST (default 127.0.0.1).
 */
@SpringBootApplication
public class Application {
    static final String NAME = "spring-boot4";

    public static void main(String[] args) {
        SpringApplication app = new SpringApplication(Application.class);
        app.addListeners((ApplicationPreparedEvent e) -> ignoreBoomInLogs());
        app.addListeners((ApplicationReadyEvent e) -> {
            int port = ((WebServerApplicationContext) e.getApplicationContext()).getWebServer().getPort();
            System.out.println(NAME + " listening on port " + port);
            System.out.flush();
        });
        app.run(args);
    }

    /** The application's own filter on /*, on every dispatch type, wrapping request and response. */
    @Bean
    public FilterRegistrationBean<TestUserFilter> testUserFilter() {
        FilterRegistrationBean<TestUserFilter> bean = new FilterRegistrationBean<>(new TestUserFilter());
        bean.addUrlPatterns("/*");
        bean.setDispatcherTypes(EnumSet.allOf(DispatcherType.class));
        bean.setAsyncSupported(true);
        return bean;
    }

    /** The deliberate /error/boom exception is not logged; everything else at WARN and above is. */
    private static void ignoreBoomInLogs() {
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            context.addTurboFilter(new TurboFilter() {
                @Override
                public FilterReply decide(Marker marker, Logger logger, Level level, String format,
                        Object[] params, Throwable t) {
                    return BoomException.isBoom(t) ? FilterReply.DENY : FilterReply.NEUTRAL;
                }
            });
        }
    }
}
