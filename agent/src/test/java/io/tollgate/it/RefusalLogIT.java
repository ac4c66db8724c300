package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Refusals are in the log without {@code debug=true}: one line each, with rule, key, status,
 * Retry-After, method and path, at most N per rule per minute ({@code refusal-log=N}, default
 * 10, {@code off}). The query string is left out: it may carry secrets.
 */
class RefusalLogIT {

  @TempDir Path dir;

  @ParameterizedTest(name = "''{0}'' writes {1} of 15 refusals")
  @CsvSource({"'', 10", "refusal-log=3, 3", "refusal-log=off, 0"})
  void refusalsAreLoggedAFewAMinute(String option, int lines) throws Exception {
    Path rules = RulesFiles.write(dir, "rules.yaml",
        "rules:",
        "  - name: hello-per-ip",
        "    match: { path: /hello, methods: [GET] }",
        "    key: ip",
        "    limit: 2",
        "    period: 1h");
    String arguments = "config=" + rules + (option.isEmpty() ? "" : "," + option);
    try (ForkedApp app = ForkedApp.app("servlet-jakarta").withAgent(arguments).start()) {
      ItSupport.assertAllowedThenRefused(app, "/hello?page=1", 2, 15);

      // A reload logged after the refusals: every refusal line is in the log before it.
      Files.write(rules, (Files.readString(rules) + "# edited\n").getBytes(StandardCharsets.UTF_8));
      ItSupport.awaitCount(app, "reloaded 1 rule", 1, ItSupport.RELOAD_TIMEOUT);

      List<String> refusals = app.agentLog().stream()
          .filter(l -> l.contains("refused GET"))
          .collect(Collectors.toList());
      assertEquals(lines, refusals.size(), String.join("\n", app.agentLog()));
      for (String line : refusals) {
        assertEquals("[tollgate] refused GET /hello by rule 'hello-per-ip' key '127.0.0.1':"
            + " 429, Retry-After " + retryAfter(line) + "s", line);
      }
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  private static String retryAfter(String line) {
    return line.substring(line.lastIndexOf("Retry-After ") + "Retry-After ".length(),
        line.length() - 1);
  }
}
