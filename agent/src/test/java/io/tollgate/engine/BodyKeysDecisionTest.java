package io.tollgate.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tollgate.config.RulesFileParser;
import io.tollgate.keys.KeyParts;
import io.tollgate.limiters.ManualClock;
import io.tollgate.rules.Rule;
import io.tollgate.rules.RuleSet;
import io.tollgate.rules.RuleSetFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Where a request is decided by a rule keyed by a parameter, and by which value: {@code query:}
 * reads the query string only, {@code form:} the form body only, {@code param:} the Servlet
 * API's parameter (query string first). No key is read from a body the application has not read:
 * such a rule waits for the application's first read ({@link DecisionPoint#BODY_READ}), and a raw
 * read (the body taken as bytes, never parsed as a form) decides without the field.
 */
class BodyKeysDecisionTest {

  private static final String PEER = "203.0.113.7";

  @ParameterizedTest(name = "key {0}; query [{1}], body [{2}] ({3}), read {4}: {5}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      value = {
        // key                       | query          | form body      | body type | read   | decided
        "param:username              | username=alice | username=admin | form      | parsed | at entry, key alice",
        "param:username              | -              | username=admin | form      | parsed | at body read, key admin",
        "param:username              | -              | username=admin | multipart | parsed | at body read, key admin",
        "param:username              | -              | username=admin | form      | raw    | at body read, no key",
        "param:username              | -              | -              | json      | raw    | at entry, no key",
        "query:username              | username=decoy | username=admin | form      | parsed | at entry, key decoy",
        "query:username              | -              | username=admin | form      | parsed | at entry, no key",
        "form:username               | username=decoy | username=admin | form      | parsed | at body read, key admin",
        "form:username               | username=decoy | username=admin | form      | raw    | at body read, no key",
        "form:username               | username=decoy | -              | json      | parsed | at entry, no key",
        "[ip, form:username]         | -              | username=admin | form      | parsed | at body read, key ip+admin",
        "form:username, fallback ip  | -              | username=admin | form      | raw    | at body read, key fallback ip",
        "ip                          | -              | username=admin | form      | parsed | at entry, key ip",
      })
  void aBodyFieldIsReadOnlyOnceTheApplicationHasReadTheBody(
      String key, String query, String form, String bodyType, String read, String expected)
      throws Exception {
    String keyLine = key.contains(", fallback ")
        ? "    key: " + key.substring(0, key.indexOf(',')) + "\n    key-fallback: "
            + key.substring(key.lastIndexOf(' ') + 1)
        : "    key: " + key;
    RuleSet rules = new RuleSetFactory(ManualClock.atEpochMillis(1_700_000_000_000L)).build(
        RulesFileParser.parse(
            "rules:\n  - name: login\n    match: { path: /login }\n" + keyLine
                + "\n    limit: 5\n    period: 1m\n", "rules.yaml"),
        null);
    FormExchange exchange = new FormExchange(query, form, !bodyType.equals("json"));
    RequestDecider decider = new RequestDecider();
    List<Rule> waitingForBody = new ArrayList<>();

    RuleVerdicts atEntry = decider.decide(exchange, null, rules, DecisionPoint.FIRST_ENTRY, null,
        null, waitingForBody, false, Long.MAX_VALUE);
    String decided;
    if (waitingForBody.isEmpty()) {
      decided = "at entry, " + keyOf(atEntry);
    } else {
      assertEquals(null, atEntry, "nothing decided before the application reads the body");
      exchange.read = read;
      RuleVerdicts atBodyRead = decider.decide(exchange, null, rules, DecisionPoint.BODY_READ,
          null, waitingForBody, null, false, Long.MAX_VALUE);
      assertEquals(List.of(), waitingForBody, "decided once");
      decided = "at body read, " + keyOf(atBodyRead);
    }
    assertEquals(expected, decided
        .replace(KeyParts.join(PEER, "admin"), "ip+admin")
        .replace(KeyParts.join("fallback", PEER), "fallback ip")
        .replace(PEER, "ip"));
  }

  private static String keyOf(RuleVerdicts verdicts) {
    return verdicts == null ? "no key" : "key " + verdicts.entries().get(0).key;
  }

  /** A POST whose query string and body are given, the body read by the application or not. */
  static final class FormExchange extends CountWhenEngineTest.HttpExchangeDelegate {
    final Map<String, String> query = new HashMap<>();
    final Map<String, String> form = new HashMap<>();
    final boolean formBody;
    /** How the application read the body: null (not yet), parsed, or raw. */
    String read;

    FormExchange(String query, String form, boolean formBody) {
      super(new FakeExchange("POST", "/login").from(PEER));
      fill(this.query, query);
      fill(this.form, form);
      this.formBody = formBody;
    }

    private static void fill(Map<String, String> into, String pairs) {
      if (pairs != null) {
        for (String pair : pairs.split("&")) {
          into.put(pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
        }
      }
    }

    @Override
    public String parameter(String name) {
      String inQuery = queryParameter(name);
      return inQuery != null ? inQuery : formParameter(name);
    }

    @Override
    public String queryParameter(String name) {
      return query.get(name);
    }

    @Override
    public String formParameter(String name) {
      if (!formBody) {
        return null; // no form body to read: nothing is read
      }
      if (read == null) {
        throw new AssertionError("a form field was read before the application read the body");
      }
      return read.equals("parsed") ? form.get(name) : null;
    }

    @Override
    public boolean formBodyUnread() {
      return formBody && read == null;
    }
  }
}
