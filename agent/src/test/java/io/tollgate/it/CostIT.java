package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Costs end to end on servlet-jakarta: a cost map by path charges each request its price up front,
 * and {@code cost-header} corrects the charge from the cost the application reports in its response
 * ({@code GET /api/export?cost=N} answers {@code X-Tollgate-Cost: N}). Every client is its own
 * {@code X-Client} key, so each script starts from a full budget of 100 a day.
 */
class CostIT {

  @TempDir Path dir;

  @Test
  void aCostMapChargesEachPathItsPrice() throws Exception {
    Path rules =
        RulesFiles.write(
            dir,
            "rules.yaml",
            "rules:",
            "  - name: api-budget",
            "    match: { path: /api/** }",
            "    key: header:X-Client",
            "    limit: 100",
            "    period: 1d",
            "    cost: { default: 1, /api/search: 5, /api/export: 50 }");
    try (ForkedApp app =
        ForkedApp.app("servlet-jakarta").on(Jdk.current()).withAgent("config=" + rules).start()) {
      // 100 / 5 = 20 searches, then nothing else fits
      assertEquals(
          statuses(repeat(200, 20), 429, 429),
          send(app, "searcher", repeatPaths("/api/search", 21), "/api/export"));
      // 100 / 50 = 2 exports; then a search (5) does not fit either
      assertEquals(
          statuses(200, 200, 429, 429),
          send(app, "exporter", "/api/export", "/api/export", "/api/export", "/api/search"));
      // one export (50) and ten searches (50) fill the budget exactly
      List<String> mixed = new ArrayList<>();
      mixed.add("/api/export");
      mixed.addAll(repeatPaths("/api/search", 10));
      mixed.add("/api/search");
      assertEquals(statuses(repeat(200, 11), 429), send(app, "mixed", mixed));
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  @Test
  void costHeaderChargesOrRefundsTheDifferenceWhenTheRequestEnds() throws Exception {
    Path rules =
        RulesFiles.write(
            dir,
            "rules.yaml",
            "rules:",
            "  - name: exports",
            "    match: { path: /api/export }",
            "    key: header:X-Client",
            "    limit: 100",
            "    period: 1d",
            "    cost: 50",
            "    cost-header: X-Tollgate-Cost");
    try (ForkedApp app =
        ForkedApp.app("servlet-jakarta").on(Jdk.current()).withAgent("config=" + rules).start()) {
      // reported cost 0: each 50 charged up front is given back, so the budget stays whole
      assertEquals(
          statuses(repeat(200, 5), 200, 200, 429),
          send(app, "cheap", repeatPaths("/api/export?cost=0", 5), "/api/export", "/api/export", "/api/export"));
      // reported 100: 50 more charged at the end, the budget is used up
      assertEquals(
          statuses(200, 429),
          send(app, "dear", "/api/export?cost=100", "/api/export?cost=0"));
      // reported 10: 40 refunded each time; but the 50 charged up front must fit, so after 6
      // exports (60 used, 40 left) the 7th is refused though it would have cost 10
      assertEquals(
          statuses(repeat(200, 6), 429, 429, 429, 429),
          send(app, "ten", repeatPaths("/api/export?cost=10", 10)));
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  private static List<Integer> send(ForkedApp app, String client, Object... paths) throws Exception {
    List<String> all = new ArrayList<>();
    for (Object p : paths) {
      if (p instanceof List) {
        for (Object q : (List<?>) p) {
          all.add((String) q);
        }
      } else {
        all.add((String) p);
      }
    }
    List<Integer> statuses = new ArrayList<>();
    for (String path : all) {
      statuses.add(app.send("GET", path, Map.of("X-Client", client)).statusCode());
    }
    return statuses;
  }

  private static List<String> repeatPaths(String path, int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(path);
    }
    return out;
  }

  private static List<Integer> repeat(int status, int n) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(status);
    }
    return out;
  }

  private static List<Integer> statuses(Object... items) {
    List<Integer> out = new ArrayList<>();
    for (Object item : items) {
      if (item instanceof List) {
        for (Object o : (List<?>) item) {
          out.add((Integer) o);
        }
      } else {
        out.add((Integer) item);
      }
    }
    return out;
  }
}
