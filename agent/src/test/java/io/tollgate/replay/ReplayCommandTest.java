package io.tollgate.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.replay.log.LoggedRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line of {@code replay}, on logs read by a stand-in reader. */
class ReplayCommandTest {

  @TempDir Path dir;

  private String out;
  private String err;

  private int run(List<LoggedRequest> requests, String... args) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    LogOpener opener = (files, format, json) -> {
      for (Path f : files) {
        if (!Files.isReadable(f)) {
          throw new IOException(f + ": no such file");
        }
      }
      return Replays.reader(requests);
    };
    int code = new ReplayCommand(opener).execute(args, new PrintStream(o, true),
        new PrintStream(e, true));
    out = new String(o.toByteArray(), StandardCharsets.UTF_8);
    err = new String(e.toByteArray(), StandardCharsets.UTF_8);
    return code;
  }

  private Path rulesFile(String... lines) throws IOException {
    Path rules = dir.resolve("rules.yaml");
    Files.write(rules, String.join("\n", lines).getBytes(StandardCharsets.UTF_8));
    return rules;
  }

  @Test
  void printsEachRulesFiguresInAlignedTablesAndWritesTheReport() throws Exception {
    Path rules = rulesFile(
        "rules:",
        "  - {name: scraper-by-agent, match: {path: /catalog/**}, key: 'header:User-Agent',",
        "     algorithm: fixed-window, limit: 120, period: 1m}",
        "  - {name: per-ip, match: {path: /catalog/**}, key: ip, limit: 120, period: 1m}");
    Path log = Files.createFile(dir.resolve("access.log"));
    Path html = dir.resolve("report.html");
    int code = run(TrafficShapes.traffic().scraper("/catalog", 10).requests(),
        rules.toString(), log.toString(), "--report", html.toString(), "--top", "3");
    assertEquals(0, code, err);
    assertTrue(out.contains("Replayed 3,000 requests logged from 2026-11-30 10:00:00 to"
        + " 2026-11-30 10:09:59 UTC"), out);
    assertTrue(out.contains("rule scraper-by-agent: fixed-window 120/1m, key header:User-Agent"), out);
    assertTrue(out.contains("\n  matched         3,000\n  would refuse    1,800  (60.00%)\n"), out);
    assertTrue(out.contains("\n  busiest minute    300  (2026-11-30 10:00 UTC; 180 would be refused)\n"),
        out);
    assertTrue(out.contains("first refusal (UTC)"), out);
    assertTrue(out.contains("2026-11-30 10:00:24"), out);
    assertTrue(out.contains("Report written to " + html), out);
    assertTrue(Files.readString(html).contains("<svg id=\"timeline-0\""));
  }

  @Test
  void usageErrorsAndInvalidRulesHaveTheirExitCodes() throws Exception {
    Path log = Files.createFile(dir.resolve("access.log"));
    assertEquals(2, run(List.of(), "only-one-file.yaml"));
    assertTrue(err.contains("name a rules file and at least one access log"), err);
    Path rules = rulesFile("rules:", "  - {name: r, match: {path: /**}, limit: 1, perod: 1m}");
    assertEquals(1, run(List.of(), rules.toString(), log.toString()));
    assertTrue(err.contains("line 2") && err.contains("period"), err);
    Path good = rulesFile("rules:", "  - {name: r, match: {path: /**}, limit: 1, period: 1m}");
    assertEquals(2, run(List.of(), good.toString(), log.toString(), "--format", "w3c"));
    assertTrue(err.contains("unknown format 'w3c'"), err);
    assertEquals(2, run(List.of(), good.toString(), dir.resolve("missing.log").toString()));
    assertTrue(err.contains("cannot read the logs"), err);
    assertEquals(2, run(List.of(), good.toString(), log.toString(), "--top", "x"));
    assertEquals(2, run(List.of(), dir.resolve("none.yaml").toString(), log.toString()));
    assertEquals(2, run(List.of(), good.toString(), log.toString(), "--report",
        dir.resolve("no/such/folder/r.html").toString()));
    assertTrue(err.contains("cannot write the report"), err);
    assertEquals(0, run(List.of(), good.toString(), log.toString(), "--format=tomcat"), err);
  }
}
