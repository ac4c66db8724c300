package io.tollgate.instrumentation.spring;

import io.tollgate.instrumentation.servlet.ServletExchange;
import io.tollgate.rules.RouteTemplates;

/**
 * The route template Spring MVC matched: {@code HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE},
 * a String or (Spring 5.3+) a {@code PathPattern} whose {@code toString()} is the pattern, relative
 * to the context path.
 */
public final class SpringRoutes {

  static final String BEST_MATCHING_PATTERN =
      "org.springframework.web.servlet.HandlerMapping.bestMatchingPattern";

  private SpringRoutes() {}

  /** The canonical route template, or null when Spring matched none. */
  public static String routeOf(ServletExchange exchange) {
    Object pattern = exchange.attribute(BEST_MATCHING_PATTERN);
    if (pattern == null) {
      return null;
    }
    String contextPath = exchange.contextPath();
    return RouteTemplates.normalize((contextPath == null ? "" : contextPath) + "/" + pattern);
  }
}
