package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The variants of one account name that issue 27 sent to a login rule, on a plain servlet app,
 * Spring MVC and Jersey without a servlet container: each got its own 5 attempts; with the key
 * normalised (the default for this login rule) they share one budget of 5 failures, and another
 * account keeps its own.
 */
class KeyNormalizationIT {

  /** The user names as sent in the query string, percent-encoded. */
  static final String[] ADMIN_VARIANTS = {
    "Admin",
    "ADMIN",
    "%20admin",          // a leading space
    "admin%09",          // a tab
    "admin%00",          // a NUL
    "%EF%BD%81dmin",     // full-width a
    "admin%E2%80%8B",    // a zero-width space after
    "admin",
  };

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"servlet-jakarta", "spring-boot3", "jaxrs-jakarta"})
  void theVariantsOfOneAccountShareOneBudget(String appName) throws Exception {
    Path rules = RulesFiles.write(dir, "rules.yaml",
        "rules:",
        "  - name: login-failures",
        "    match: { path: /login, methods: [POST] }",
        "    key: [ip, param:username]",
        "    count-when: [401, 403]",
        "    algorithm: sliding-log",
        "    limit: 5",
        "    period: 15m");
    try (ForkedApp app =
        ForkedApp.app(appName).on(Jdk.current()).withAgent("config=" + rules).start()) {
      List<Integer> statuses = new ArrayList<>();
      for (String name : ADMIN_VARIANTS) {
        statuses.add(
            app.send("POST", "/login?username=" + name + "&password=wrong", Map.of()).statusCode());
      }
      assertEquals(Arrays.asList(401, 401, 401, 401, 401, 429, 429, 429), statuses,
          "five failures over all the variants, then every variant is refused");
      assertEquals(401,
          app.send("POST", "/login?username=bob&password=wrong", Map.of()).statusCode(),
          "another account has its own budget");
      ServletAppsIT.assertAgentLogClean(app);
    }
  }
}
