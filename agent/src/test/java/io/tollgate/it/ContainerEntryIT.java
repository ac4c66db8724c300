package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every request the server receives passes the rules, including those the container answers
 * itself: on the embedded containers of the test apps, which have no default servlet, a path no
 * servlet is mapped to is answered 404 by Tomcat's context valve or Jetty's servlet handler, and
 * no filter or servlet runs for it. The container's own request entry (Tomcat's host valve,
 * Jetty's server) decides it, and a request that does reach a filter and a servlet is still
 * counted once.
 */
class ContainerEntryIT {

  /** The apps, each with its container: Tomcat 10.1 and 9 embedded, Jetty 9.4 embedded. */
  static final List<String> APPS =
      Arrays.asList("servlet-jakarta", "servlet-javax", "servlet-jetty9");

  @TempDir Path dir;

  static Stream<String> apps() {
    return APPS.stream();
  }

  /**
   * Each case: the rule (after its name), the requests sent in order, and the statuses expected.
   * The container answers the unmapped paths (/nope/...) with 404 and the app answers /hello.
   */
  static Stream<Arguments> cases() {
    List<Arguments> cases = new ArrayList<>();
    for (String app : APPS) {
      cases.add(Arguments.of(app, "an unmapped path is counted like any other",
          new String[] {"match: { path: /** }", "key: ip", "limit: 3", "period: 1h"},
          List.of("/nope/x", "/nope/x", "/nope/x", "/nope/x", "/nope/x"),
          List.of(404, 404, 404, 429, 429)));
      cases.add(Arguments.of(app, "count-when [404] refuses a scanner after three misses",
          new String[] {"match: { path: /** }", "key: ip", "count-when: [404]", "limit: 3",
              "period: 1h"},
          List.of("/hello", "/hello", "/hello", "/hello", "/nope/a", "/hello", "/nope/b",
              "/wp-admin", "/hello", "/nope/c", "/hello"),
          List.of(200, 200, 200, 200, 404, 200, 404, 404, 429, 429, 429)));
      cases.add(Arguments.of(app, "a mapped path passes two entries and is counted once",
          new String[] {"match: { path: /hello }", "key: ip", "limit: 3", "period: 1h"},
          List.of("/hello", "/hello", "/hello", "/hello"),
          List.of(200, 200, 200, 429)));
      cases.add(Arguments.of(app, "an asynchronous request is counted once, its end settled",
          new String[] {"match: { path: /async/hello }", "key: ip", "limit: 3",
              "period: 1h"},
          List.of("/async/hello", "/async/hello", "/async/hello", "/async/hello"),
          List.of(200, 200, 200, 429)));
      cases.add(Arguments.of(app,
          "an asynchronous request dispatched back into the container is counted once",
          new String[] {"match: { path: /async/dispatch }", "key: ip", "limit: 3",
              "period: 1h"},
          List.of("/async/dispatch", "/async/dispatch", "/async/dispatch", "/async/dispatch"),
          List.of(200, 200, 200, 429)));
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("cases")
  void everyRequestPassesTheRulesOnce(String appName, String description, String[] rule,
      List<String> paths, List<Integer> expected) throws Exception {
    List<String> lines = new ArrayList<>(List.of("rules:", "  - name: all"));
    for (String line : rule) {
      lines.add("    " + line);
    }
    Path rules = RulesFiles.write(dir, "rules.yaml", lines.toArray(new String[0]));
    try (ForkedApp app =
        ForkedApp.app(appName).on(Jdk.current()).withAgent("config=" + rules).start()) {
      List<Integer> statuses = new ArrayList<>();
      List<String> remaining = new ArrayList<>();
      for (String path : paths) {
        HttpResponse<String> response = app.get(path);
        statuses.add(response.statusCode());
        remaining.add(response.headers().firstValue("RateLimit").orElse("-"));
      }
      assertEquals(expected, statuses, description + "; RateLimit headers " + remaining);
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  /**
   * Where both entries are reached, the container's decides and the servlet's counts nothing: the
   * quota left goes down by one a request, and the agent wove both.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("apps")
  void aMappedPathIsDecidedAtTheContainerAndCountedOnce(String appName) throws Exception {
    Path rules = RulesFiles.write(dir, "rules.yaml", "rules:", "  - name: hello",
        "    match: { path: /hello }", "    key: ip", "    limit: 3", "    period: 1h");
    try (ForkedApp app =
        ForkedApp.app(appName).on(Jdk.current()).withAgent("config=" + rules).start()) {
      List<String> quota = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        HttpResponse<String> response = app.get("/hello");
        assertEquals(200, response.statusCode(), response.body());
        // the remaining units only: the seconds to a whole quota depend on when it was sent
        String rateLimit = response.headers().firstValue("RateLimit").orElse("none");
        quota.add(rateLimit.replaceAll(";t=\\d+", ""));
      }
      assertEquals(List.of("\"hello\";r=2", "\"hello\";r=1", "\"hello\";r=0"), quota);
      String container = appName.contains("jetty") ? "detected Jetty" : "detected Tomcat";
      assertTrue(app.agentLog().stream().anyMatch(l -> l.contains(container)),
          "the container's entry is woven:\n" + String.join("\n", app.agentLog()));
      assertTrue(app.agentLog().stream().anyMatch(l -> l.contains("detected a Servlet container")),
          "the servlet entries are woven:\n" + String.join("\n", app.agentLog()));
      ServletAppsIT.assertAgentLogClean(app);
    }
  }
}
