package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.replay.TrafficShapes;
import io.tollgate.replay.log.LoggedRequest;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code java -jar tollgate-agent.jar replay} as an operator runs it, on NCSA combined logs of the
 * traffic shapes of {@link TrafficShapes}, whose expected counts {@code ReplayShapesTest} works out.
 */
class ReplayIT {

  @TempDir Path dir;

  static final String[] RULES = {
    "rules:",
    "  - name: scraper-by-agent",
    "    match: {path: /catalog/**}",
    "    key: header:User-Agent",
    "    algorithm: fixed-window",
    "    limit: 120",
    "    period: 1m",
    "  - {name: catalog-per-ip, match: {path: /catalog/**}, key: ip, limit: 120, period: 1m}",
    "  - {name: partner, match: {path: /api/sync}, key: ip, limit: 20, period: 1s, burst: 40}",
    "  - name: orders",
    "    match: {path: /api/orders}",
    "    algorithm: sliding-log",
    "    limit: 100",
    "    period: 1m",
    "  - {name: orders-by-route, match: {route: '/api/orders/{id}'}, limit: 1, period: 1m}",
  };

  static TrafficShapes traffic() {
    return TrafficShapes.traffic()
        .scraper("/catalog", 10)
        .partner("192.0.2.50", "/api/sync", 60)
        .burstAtBoundary("203.0.113.20", "/api/orders", 100)
        .steady("203.0.113.10", "/api/orders", 600);
  }

  static final class Result {
    final int exitCode;
    final String out;
    final String err;

    Result(int exitCode, String out, String err) {
      this.exitCode = exitCode;
      this.out = out;
      this.err = err;
    }

    /** The block of the report about one rule. */
    String rule(String name) {
      int start = out.indexOf("\nrule " + name + ":");
      assertTrue(start >= 0, "no rule " + name + " in: " + out);
      int end = out.indexOf("\nrule ", start + 1);
      return out.substring(start, end < 0 ? out.length() : end);
    }
  }

  static Result run(String... args) throws IOException, InterruptedException {
    return runWithInput(null, args);
  }

  /** As {@link #run}, with {@code input} on standard input (or none). */
  static Result runWithInput(Path input, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Jdk.current().javaExecutable());
    command.add("-jar");
    command.add(TestPaths.agentJar().getAbsolutePath());
    command.add("replay");
    command.addAll(Arrays.asList(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    if (input != null) {
      builder.redirectInput(input.toFile());
    }
    Process process = builder.start();
    if (input == null) {
      process.getOutputStream().close();
    }
    byte[] out = process.getInputStream().readAllBytes();
    byte[] err = process.getErrorStream().readAllBytes();
    assertTrue(process.waitFor(5, TimeUnit.MINUTES));
    return new Result(process.exitValue(), new String(out, StandardCharsets.UTF_8),
        new String(err, StandardCharsets.UTF_8));
  }

  private Path rules() throws IOException {
    Path rules = dir.resolve("rules.yaml");
    Files.write(rules, String.join("\n", RULES).getBytes(StandardCharsets.UTF_8));
    return rules;
  }

  private static void assertFigure(String block, String name, String value) {
    assertTrue(Pattern.compile("\n  " + Pattern.quote(name) + " +" + Pattern.quote(value))
        .matcher(block).find(), name + " " + value + " in: " + block);
  }

  /** A row of a table: its cells in order, any spaces between. */
  private static void assertRow(String block, String... cells) {
    StringBuilder regex = new StringBuilder("\n +");
    for (int i = 0; i < cells.length; i++) {
      regex.append(i == 0 ? "" : " +").append(Pattern.quote(cells[i]));
    }
    assertTrue(Pattern.compile(regex.toString()).matcher(block).find(),
        String.join(" | ", cells) + " in: " + block);
  }

  private static void assertExpectedCounts(Result result) {
    assertEquals(0, result.exitCode, result.err);
    assertTrue(result.out.contains("Replayed 5,300 requests logged from 2026-11-30 10:00:00 to"
        + " 2026-11-30 10:09:59 UTC"), result.out);
    String scraper = result.rule("scraper-by-agent");
    assertFigure(scraper, "matched", "3,000");
    assertFigure(scraper, "would refuse", "1,800  (60.00%)");
    assertFigure(scraper, "keys refused", "1");
    String perIp = result.rule("catalog-per-ip");
    assertFigure(perIp, "would refuse", "0  (0.00%)");
    assertFigure(perIp, "distinct keys", "3");
    assertRow(perIp, "120/1m", "100", "100", "100", "3"); // the limits needed
    String partner = result.rule("partner");
    assertFigure(partner, "matched", "1,500");
    assertFigure(partner, "would refuse", "280  (18.67%)");
    assertRow(partner, "192.0.2.50", "280", "1,500", "2026-11-30 10:00:10");
    assertRow(partner, "20/1s burst 40", "80", "80", "80", "1");
    String orders = result.rule("orders");
    assertFigure(orders, "matched", "800");
    assertFigure(orders, "would refuse", "100  (12.50%)");
    assertFigure(orders, "keys refused", "1");
    assertRow(orders, "203.0.113.20", "100", "200", "2026-11-30 10:01:00");
    assertRow(orders, "100/1m", "200", "200", "200", "2");
    String byRoute = result.rule("orders-by-route");
    assertTrue(byRoute.contains("not replayable"), byRoute);
    assertTrue(result.out.contains("Would refuse 2,180 requests (41.13%)."), result.out);
  }

  @Test
  void replaysACombinedLogWithTheExpectedCountsAndWritesTheReport() throws Exception {
    Path log = traffic().writeCombined(dir.resolve("access.log"));
    Path report = dir.resolve("report.html");
    Result result = run(rules().toString(), log.toString(), "--report", report.toString());
    assertExpectedCounts(result);
    assertTrue(result.out.contains("Read " + log + " as combined."), result.out);
    String html = new String(Files.readAllBytes(report), StandardCharsets.UTF_8);
    assertTrue(html.contains("<svg id=\"timeline-0\"") && html.contains("<svg id=\"keys-3\""));
  }

  @Test
  void gzipAndSeveralFilesAreMergedInTimeOrderAndBadLinesAreCountedNotFatal() throws Exception {
    List<LoggedRequest> all = traffic().requests();
    Path plain = dir.resolve("access.log.1");
    Path gzip = dir.resolve("access.log.2.gz");
    try (Writer first = Files.newBufferedWriter(plain, StandardCharsets.UTF_8);
        OutputStream second = new GZIPOutputStream(Files.newOutputStream(gzip))) {
      int i = 0;
      for (LoggedRequest r : all) {
        String line = TrafficShapes.combinedLine(r) + "\n";
        if (i++ % 2 == 0) {
          first.write(line);
        } else {
          second.write(line.getBytes(StandardCharsets.UTF_8));
        }
        if (i == 1000) {
          first.write("this is not a request\n");
        }
      }
    }
    Result result = run(rules().toString(), gzip.toString(), plain.toString(), "--format", "combined");
    assertExpectedCounts(result);
    assertTrue(result.out.contains("Could not read 1 line (not replayed)"), result.out);
    assertTrue(result.out.contains(plain + ": line 501: "), result.out);
  }

  @Test
  void readsALogFromStandardInput() throws Exception {
    Path log = traffic().writeCombined(dir.resolve("access.log"));
    assertExpectedCounts(runWithInput(log, rules().toString(), "-"));
  }

  @Test
  void aJsonLogCarriesTheApiKeysAndPlansOfTheApiTiersExample() throws Exception {
    // the partner (20/s, 60 more at seconds 10 to 50) on the pro plan: 20/1s and 10000/1h,
    // buckets of 20; each burst second lets 20 through and refuses 60
    Path log = dir.resolve("access.json");
    try (Writer out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
      for (LoggedRequest r : TrafficShapes.traffic().partner("192.0.2.50", "/api/sync", 60).requests()) {
        out.write("{\"time\":\"" + java.time.Instant.ofEpochMilli(r.epochMillis)
            + "\",\"remote_addr\":\"" + r.clientAddress + "\",\"request_method\":\"GET\","
            + "\"request_uri\":\"" + r.path + "\",\"status\":200,"
            + "\"http_x_api_key\":\"partner-key\",\"http_x_plan\":\"pro\"}\n");
      }
    }
    Path rules = java.nio.file.Paths.get(System.getProperty("tollgate.config.examples"), "api-tiers.yaml");
    Result result = run(rules.toString(), log.toString(), "--format", "json");
    assertEquals(0, result.exitCode, result.err);
    String perKey = result.rule("api-per-key");
    assertFigure(perKey, "matched", "1,500");
    assertFigure(perKey, "would refuse", "300  (20.00%)");
    assertRow(perKey, "pro: 20/1s", "80", "80", "80", "1");
    assertRow(perKey, "pro: 10000/1h", "1,500", "1,500", "1,500", "1");
    String global = result.rule("api-global");
    assertTrue(global.contains("(shadow: would-refuse only)"), global);
    assertFigure(global, "would refuse", "0  (0.00%)");
  }

  @Test
  void anInvalidRulesFileExits1AndAMissingLogExits2() throws Exception {
    Path log = traffic().writeCombined(dir.resolve("access.log"));
    Path bad = dir.resolve("bad.yaml");
    Files.write(bad, "rules:\n  - {name: r, match: {path: /**}, limit: 5, perod: 1m}\n"
        .getBytes(StandardCharsets.UTF_8));
    Result invalid = run(bad.toString(), log.toString());
    assertEquals(1, invalid.exitCode, invalid.err);
    assertTrue(invalid.err.contains("line 2"), invalid.err);
    Result missing = run(rules().toString(), dir.resolve("nope.log").toString());
    assertEquals(2, missing.exitCode, missing.err);
    assertTrue(missing.err.contains("nope.log"), missing.err);
    Result usage = run(rules().toString());
    assertEquals(2, usage.exitCode, usage.err);
  }
}
