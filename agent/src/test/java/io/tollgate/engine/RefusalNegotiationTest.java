package io.tollgate.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.tollgate.limiters.Clock;
import io.tollgate.rules.RuleSetFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The body of a refusal the engine answers, by the request's {@code Accept}: a browser's gets the
 * HTML page, every other client problem+json, and a request without {@code Accept} (most of a
 * flood) problem+json without its lines being read.
 */
class RefusalNegotiationTest {

  @TempDir Path dir;

  @ParameterizedTest(name = "Accept [{0}]: {1}")
  @CsvSource(delimiter = '|', nullValues = "-", value = {
      // Accept | content type of the refusal
      "-                                              | application/problem+json",
      "*/*                                            | application/problem+json",
      "application/json                               | application/problem+json",
      "text/html,application/xhtml+xml,*/*;q=0.8      | text/html; charset=utf-8",
      "text/html;q=0                                  | application/problem+json",
      "text/html, application/json                    | application/problem+json",
  })
  void answersTheBodyTheClientAcceptsAndNoneNeedsTheLinesRead(String accept, String type)
      throws Exception {
    Path rules = dir.resolve("rules.yaml");
    Files.write(rules, String.join("\n",
        "rules:",
        "  - name: one-an-hour",
        "    match:",
        "      path: /hello",
        "    key: ip",
        "    limit: 1",
        "    period: 1h",
        "").getBytes(StandardCharsets.UTF_8));
    RulesHolder holder = new RulesHolder(new RuleSetFactory(Clock.system()));
    holder.useFile(rules.toString());
    TollgateGate engine = new TollgateGate(holder);
    engine.requestEnded(engine.outermostEntry(FakeExchange.get("/hello").from("198.51.100.1")));

    FakeExchange refused = FakeExchange.get("/hello").from("198.51.100.1");
    if (accept != null) {
      refused.header("Accept", accept);
    }
    assertSame(RequestScope.REFUSED, engine.outermostEntry(refused));

    assertNotNull(refused.refusal);
    assertEquals(429, refused.refusal.status());
    assertEquals(type, refused.refusal.contentType());
  }
}
