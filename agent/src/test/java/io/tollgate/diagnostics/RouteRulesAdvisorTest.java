package io.tollgate.diagnostics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.testing.StandardErrorCapture;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Rules that need a route, in an application without Spring MVC or Jersey, count nothing: said
 * once, after enough requests to be sure no framework handler is coming.
 */
class RouteRulesAdvisorTest {

  @RegisterExtension final StandardErrorCapture err = new StandardErrorCapture();

  @Test
  void onPlainServletsItSaysWhichRulesCountNothingOnce() {
    RouteRulesAdvisor advisor = new RouteRulesAdvisor();
    for (int i = 0; i < 3 * RouteRulesAdvisor.REQUESTS; i++) {
      advisor.requestEnded(false, () -> List.of("per-route"));
    }
    assertEquals(1, err.agentLines().size(), err.text());
    assertTrue(err.agentLines().get(0).startsWith("[tollgate] WARN rule 'per-route' needs the"
        + " request's route template"), err.text());
  }

  @Test
  void aFrameworkHandlerOrNoRouteRulesSayNothing() {
    RouteRulesAdvisor withSpring = new RouteRulesAdvisor();
    RouteRulesAdvisor withoutRouteRules = new RouteRulesAdvisor();
    for (int i = 0; i < 3 * RouteRulesAdvisor.REQUESTS; i++) {
      withSpring.requestEnded(i > 0, () -> List.of("per-route"));
      withoutRouteRules.requestEnded(false, List::of);
    }
    assertEquals(List.of(), err.agentLines());
  }
}
