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

  /** A set of rules in force, as the advisor sees it: compared by identity. */
  private static final Object RULES = new Object();

  @RegisterExtension final StandardErrorCapture err = new StandardErrorCapture();

  @Test
  void onPlainServletsItSaysWhichRulesCountNothingOnce() {
    RouteRulesAdvisor advisor = new RouteRulesAdvisor();
    for (int i = 0; i < 3 * RouteRulesAdvisor.REQUESTS; i++) {
      advisor.requestEnded(false, RULES, () -> List.of("per-route"));
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
      withSpring.requestEnded(i > 0, RULES, () -> List.of("per-route"));
      withoutRouteRules.requestEnded(false, RULES, List::of);
    }
    assertEquals(List.of(), err.agentLines());
  }

  @Test
  void aRouteRuleLoadedAfterTheFirstRequestsIsReportedOnceAtTheNextRequest() {
    RouteRulesAdvisor advisor = new RouteRulesAdvisor();
    for (int i = 0; i < 2 * RouteRulesAdvisor.REQUESTS; i++) {
      advisor.requestEnded(false, RULES, List::of); // path rules only: nothing to say
    }
    assertEquals(List.of(), err.agentLines());

    Object reloaded = new Object(); // a reload that adds a route rule
    int[] looks = {0};
    for (int i = 0; i < 3; i++) {
      advisor.requestEnded(false, reloaded, () -> {
        looks[0]++;
        return List.of("per-route");
      });
    }
    assertEquals(1, err.agentLines().size(), err.text());
    assertTrue(err.agentLines().get(0).contains("rule 'per-route' needs the request's route"
        + " template"), err.text());
    assertTrue(err.agentLines().get(0).contains("none of them has served a request here ("
        + RouteRulesAdvisor.REQUESTS + " or more so far)"), err.text());
    assertEquals(1, looks[0], "the rules are walked once, not at every request");
  }

  @Test
  void theSameRulesAreWalkedOnceAfterTheFirstRequests() {
    RouteRulesAdvisor advisor = new RouteRulesAdvisor();
    int[] looks = {0};
    for (int i = 0; i < 5 * RouteRulesAdvisor.REQUESTS; i++) {
      advisor.requestEnded(false, RULES, () -> {
        looks[0]++;
        return List.of();
      });
    }
    assertEquals(1, looks[0]);
    assertEquals(List.of(), err.agentLines());
  }
}
