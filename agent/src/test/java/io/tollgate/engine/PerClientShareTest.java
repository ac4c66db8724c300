package io.tollgate.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.tollgate.limiters.Clock;
import io.tollgate.rules.RuleSetFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import io.tollgate.testing.StandardErrorCapture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code per-client}: on a concurrency rule keyed {@code global}, one client (its address unless
 * {@code per-client-key} says otherwise) holds at most its share of the permits, and the others
 * keep the rest. Each row: the rule's algorithm (4 permits), its per-client setting, and how many
 * requests one client holds before it is refused.
 */
class PerClientShareTest {

  @TempDir Path dir;
  @RegisterExtension final StandardErrorCapture stderr = new StandardErrorCapture();
  private RulesHolder holder;
  /** The rule's name: the refusal log writes a few lines a minute per rule name, in this JVM. */
  private String ruleName = "pool";

  private TollgateGate engine(String algorithm, String... extra) throws Exception {
    List<String> lines = new ArrayList<>(List.of(
        "rules:",
        "  - name: " + ruleName,
        "    match:",
        "      path: /login",
        "    key: global",
        "    algorithm: " + algorithm));
    lines.addAll(algorithm.equals("concurrency")
        ? List.of("    limit: 4", "    period: 1m")
        : List.of("    min: 4", "    initial: 4", "    max: 4"));
    for (String e : extra) {
      if (!e.isEmpty()) {
        lines.add("    " + e);
      }
    }
    Path rules = dir.resolve("rules.yaml");
    Files.write(rules, (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    holder = new RulesHolder(new RuleSetFactory(Clock.system()));
    holder.useFile(rules.toString());
    assertEquals(1, holder.current().size());
    return new TollgateGate(holder);
  }

  @ParameterizedTest(name = "{0}, ''{1}'': one client holds {2} of 4")
  @CsvSource(delimiter = '|', value = {
      "concurrency          | ''                | 2",
      "concurrency          | per-client: 75%   | 3",
      "concurrency          | per-client: 100%  | 4",
      "concurrency          | per-client: off   | 4",
      "concurrency          | per-client: 1%    | 1",
      "adaptive-concurrency | ''                | 2",
      "adaptive-concurrency | per-client: 25%   | 1",
      "adaptive-concurrency | per-client: off   | 4",
  })
  void oneClientHoldsAtMostItsShareAndTheOthersTheRest(
      String algorithm, String perClient, int held) throws Exception {
    TollgateGate engine = engine(algorithm, perClient);
    List<RequestScope> slow = new ArrayList<>();
    for (int i = 0; i < held; i++) {
      RequestScope scope = engine.outermostEntry(login("198.51.100.1"));
      assertNotSame(RequestScope.REFUSED, scope, "the slow client's request " + (i + 1));
      slow.add(scope);
    }

    assertSame(RequestScope.REFUSED, engine.outermostEntry(login("198.51.100.1")),
        "over its share");
    RequestScope other = engine.outermostEntry(login("203.0.113.9"));
    assertEquals(held < 4, other != RequestScope.REFUSED, "another client, with permits left");

    engine.requestEnded(slow.get(0));
    RequestScope again = engine.outermostEntry(login("198.51.100.1"));
    assertNotSame(RequestScope.REFUSED, again, "a request ended gives its share back");
  }

  @Test
  void perClientKeyTellsClientsBehindOneAddressApart() throws Exception {
    TollgateGate engine = engine("concurrency", "per-client-key: header:X-User");
    for (String user : new String[] {"ann", "ann", "bob", "bob"}) {
      assertNotSame(RequestScope.REFUSED,
          engine.outermostEntry(login("198.51.100.1").header("X-User", user)), user);
    }
    assertSame(RequestScope.REFUSED,
        engine.outermostEntry(login("198.51.100.1").header("X-User", "ann")), "ann holds 2 of 4");
  }

  @Test
  void aRefusalForTheShareNamesTheClientInTheLog() throws Exception {
    ruleName = "pool-whose-refusals-are-logged";
    TollgateGate engine = engine("concurrency");
    engine.outermostEntry(login("198.51.100.1"));
    engine.outermostEntry(login("198.51.100.1"));

    assertSame(RequestScope.REFUSED, engine.outermostEntry(login("198.51.100.1")));

    assertEquals(1, stderr.agentLines().stream().filter(l -> l.contains(
        "refused POST /login by rule 'pool-whose-refusals-are-logged' key '*' (client '198.51.100.1' holds its per-client"
            + " share): 429")).count(), String.join("\n", stderr.agentLines()));
  }

  @Test
  void aRequestThePoolRefusesTakesNothingOfItsClientsShare() throws Exception {
    TollgateGate engine = engine("concurrency", "per-client: 50%");
    engine.outermostEntry(login("198.51.100.1"));
    engine.outermostEntry(login("198.51.100.2"));
    engine.outermostEntry(login("198.51.100.2"));
    engine.outermostEntry(login("198.51.100.3"));
    for (int i = 0; i < 3; i++) {
      assertSame(RequestScope.REFUSED, engine.outermostEntry(login("198.51.100.1")), "pool full");
    }
    assertEquals(1L, heldBy("198.51.100.1"), "only the admitted one counts");
  }

  /**
   * In shadow mode the share is counted as when enforced: a request over its client's share runs,
   * and is what the shadow log and metrics call a would-refuse, naming the client, so that what
   * {@code per-client} will refuse shows before the rule is enforced. It takes no share (enforced,
   * it would not have run), and a plain concurrency pool's permit goes back at once.
   */
  @ParameterizedTest(name = "{0} in shadow mode")
  @CsvSource({"concurrency", "adaptive-concurrency"})
  void inShadowModeTheShareIsAWouldRefuseNamingTheClient(String algorithm) throws Exception {
    ruleName = "shadow-pool-" + algorithm;
    TollgateGate engine = engine(algorithm, "mode: shadow");
    List<RequestScope> slow = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      RequestScope scope = engine.outermostEntry(login("198.51.100.1"));
      assertNotSame(RequestScope.REFUSED, scope, "shadow refuses nothing: request " + (i + 1));
      slow.add(scope);
    }

    assertEquals(2L, heldBy("198.51.100.1"), "the third request took no share");
    assertEquals(1, stderr.agentLines().stream().filter(l -> l.contains(
        "shadow: rule '" + ruleName + "' would refuse key '*' (client '198.51.100.1' holds its"
            + " per-client share)")).count(), String.join("\n", stderr.agentLines()));
    for (RequestScope scope : slow) {
      engine.requestEnded(scope);
    }
    assertEquals(0L, heldBy("198.51.100.1"), "every share given back, and only what was taken");
    RequestScope other = engine.outermostEntry(login("203.0.113.9"));
    assertNotSame(RequestScope.REFUSED, other);
    engine.requestEnded(other);
  }

  private long heldBy(String address) {
    return holder.current().get(0).clientShare().held("*\n" + address);
  }

  private static FakeExchange login(String address) {
    return new FakeExchange("POST", "/login").from(address);
  }
}
