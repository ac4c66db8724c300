package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A path rule keyed by the user counts users that the application's own filter authenticates
 * (Spring Security's way, here each test app's TestUserFilter, which names the user from the
 * header X-Test-User), though that filter runs after the first servlet entry point: the rule
 * waits for the user, and is decided at the first point that has one.
 */
class PrincipalKeyIT {

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"servlet-jakarta", "spring-boot3", "spring-boot4", "jaxrs-javax"})
  void eachUserHasABudgetOfTheirOwn(String appName) throws Exception {
    Path rules = RulesFiles.write(dir, "rules.yaml",
        "rules:",
        "  - name: per-user",
        "    match:",
        "      path: /whoami",
        "    key: principal",
        "    limit: 2",
        "    period: 1h");
    try (ForkedApp app = ForkedApp.app(appName).withAgent("config=" + rules).start()) {
      assertEquals(List.of(200, 200, 429, 429), statuses(app, "alice", 4));
      assertEquals(List.of(200, 200, 429), statuses(app, "bob", 3), "bob's own budget");
      assertEquals(List.of(200, 200, 200), statuses(app, null, 3),
          "no user: not counted by a rule keyed by the user");
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  private static List<Integer> statuses(ForkedApp app, String user, int n) throws Exception {
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      HttpResponse<String> response = app.send("GET", "/whoami",
          user == null ? Map.of() : Map.of("X-Test-User", user));
      statuses.add(response.statusCode());
    }
    return statuses;
  }
}
