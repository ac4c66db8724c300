package io.tollgate.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tollgate.config.RulesFileParser;
import io.tollgate.limiters.ManualClock;
import io.tollgate.rules.RuleSet;
import io.tollgate.rules.RuleSetFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code count-when}, request by request through the engine: each request is charged when it is
 * decided, and given its charge back when it ends with a status the rule does not count.
 *
 * <p>Each scenario is a rules file and a script. {@code wait 1m} moves the clock; a request line
 * reads {@code POST /login [from ADDRESS] [user:NAME] [strict:KEY] [answers STATUS] [reports N]
 * -> OUTCOME}: {@code answers} is the status the application answers (none: a status the exchange
 * cannot tell), {@code reports N} sets {@code X-Cost: N} on its response; the outcome is {@code
 * 200}, {@code 200 shadow would refuse} or {@code 429 RULE}.
 */
class CountWhenEngineTest {

  private static final long START = Instant.parse("2026-03-28T22:30:00Z").toEpochMilli();

  static Stream<Arguments> scenarios() {
    List<Arguments> all = new ArrayList<>();
    all.add(scenario(
        "the login policy: successes never lock a user out, the 4th failure is refused",
        login("count-when: [401, 403]", "limit: 3", "period: 15m"),
        repeat(10, "POST /login answers 200 -> 200"),
        "POST /login answers 401 -> 200",
        "POST /login answers 403 -> 200",
        "POST /login answers 401 -> 200",
        "POST /login answers 401 -> 429 login",
        // refused requests are never refunded, and the right password does not get through either
        "POST /login answers 200 -> 429 login",
        // another address is another key
        "POST /login from 198.51.100.9 answers 401 -> 200",
        "wait 15m",
        "POST /login answers 401 -> 200"));
    all.add(scenario(
        "a composite key: the address and the user name are counted together",
        login("key: [ip, param:username]", "count-when: [401]", "limit: 1", "period: 1h"),
        "POST /login user:alice answers 401 -> 200",
        "POST /login user:alice answers 401 -> 429 login",
        "POST /login user:bob answers 200 -> 200",
        "POST /login user:bob answers 401 -> 200",
        "POST /login user:bob answers 401 -> 429 login"));
    all.add(scenario(
        "failure counts 4xx and 5xx, nothing else",
        login("count-when: failure", "limit: 3", "period: 1h"),
        "POST /login answers 200 -> 200",
        "POST /login answers 302 -> 200",
        "POST /login answers 304 -> 200",
        "POST /login answers 404 -> 200",
        "POST /login answers 500 -> 200",
        "POST /login answers 302 -> 200",
        "POST /login answers 400 -> 200",
        "POST /login answers 200 -> 429 login"));
    all.add(scenario(
        "a status the exchange cannot tell stays charged",
        login("count-when: [401]", "limit: 2", "period: 1h"),
        "POST /login -> 200",
        "POST /login -> 200",
        "POST /login answers 200 -> 429 login"));
    for (String algorithm :
        new String[] {"token-bucket", "gcra", "fixed-window", "sliding-window", "sliding-log"}) {
      all.add(scenario(
          algorithm + ": successes are given back, failures counted",
          login("algorithm: " + algorithm, "count-when: [401]", "limit: 3", "period: 15m"),
          repeat(10, "POST /login answers 200 -> 200"),
          repeat(3, "POST /login answers 401 -> 200"),
          "POST /login answers 401 -> 429 login"));
    }
    all.add(scenario(
        "several limits: one group, every limit given back",
        login("count-when: [401]", "limits: [{limit: 3, period: 1m}, {limit: 5, period: 1h}]"),
        repeat(10, "POST /login answers 200 -> 200"),
        repeat(3, "POST /login answers 401 -> 200"),
        "POST /login answers 401 -> 429 login/1m",
        "wait 1m",
        repeat(2, "POST /login answers 401 -> 200"),
        "POST /login answers 200 -> 429 login/1h"));
    all.add(scenario(
        "the penalty box: only refusals fill it, so successes never box a user",
        login("count-when: [401]", "limit: 1", "period: 1m", "penalty: { after: 2, within: 1h, box-for: 15m }"),
        repeat(20, "POST /login answers 200 -> 200"),
        "POST /login answers 401 -> 200",
        "POST /login answers 200 -> 429 login",
        "POST /login answers 200 -> 429 login",
        "wait 1m",
        // boxed by the second refusal, though the limit has room again
        "POST /login answers 200 -> 429 login",
        "wait 15m",
        "POST /login answers 200 -> 200"));
    all.add(scenario(
        "shadow mode: counted and given back the same, never refused",
        login("count-when: [401]", "limit: 1", "period: 1h", "mode: shadow"),
        repeat(5, "POST /login answers 200 -> 200"),
        "POST /login answers 401 -> 200",
        "POST /login answers 401 -> 200 shadow would refuse",
        "POST /login answers 200 -> 200 shadow would refuse"));
    all.add(scenario(
        "with cost-header: a status that does not count gives back the whole charge, header or not;"
            + " one that counts is corrected by the header",
        login("count-when: [401]", "limit: 10", "period: 1h", "cost: 5", "cost-header: X-Cost"),
        "POST /login answers 200 reports 9 -> 200",
        "POST /login answers 200 -> 200",
        "POST /login answers 401 reports 8 -> 200",
        // 8 of 10 used: the next 5 up front do not fit
        "POST /login answers 200 -> 429 login"));
    all.add(scenario(
        "a request refused by one rule is not given back by another",
        "rules:\n"
            + "  - name: strict\n    match: { path: /login }\n    key: header:X-Strict\n"
            + "    limit: 1\n    period: 1h\n"
            + "  - name: loose\n    match: { path: /login }\n    key: ip\n"
            + "    count-when: [401]\n    limit: 2\n    period: 1h\n",
        "POST /login strict:a answers 401 -> 200",
        // refused by strict; loose took its charge, and the 429 does not give it back
        "POST /login strict:a answers 200 -> 429 strict",
        "POST /login answers 401 -> 429 loose"));
    return all.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void runs(String title, String yaml, List<String> script) throws Exception {
    Harness h = new Harness(yaml);
    int n = 0;
    for (String line : script) {
      n++;
      if (line.startsWith("wait ")) {
        h.clock.advanceNanos(io.tollgate.config.Durations.parseNanos(line.substring(5)));
        continue;
      }
      String[] parts = line.split(" -> ");
      assertEquals(parts[1], h.send(parts[0]), "line " + n + ": " + line);
    }
  }

  static String login(String... lines) {
    StringBuilder sb =
        new StringBuilder("rules:\n  - name: login\n    match: { path: /login, methods: [POST] }\n");
    boolean keyed = false;
    for (String l : lines) {
      keyed |= l.startsWith("key:");
      sb.append("    ").append(l).append('\n');
    }
    if (!keyed) {
      sb.append("    key: ip\n");
    }
    return sb.toString();
  }

  static List<String> repeat(int n, String line) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(line);
    }
    return out;
  }

  static Arguments scenario(String title, String yaml, Object... script) {
    List<String> lines = new ArrayList<>();
    for (Object o : script) {
      if (o instanceof List) {
        for (Object l : (List<?>) o) {
          lines.add((String) l);
        }
      } else {
        lines.add((String) o);
      }
    }
    return Arguments.of(title, yaml, lines);
  }

  /** The engine on a manual clock. */
  static final class Harness {
    final ManualClock clock = ManualClock.atEpochMillis(START);
    final RuleSetFactory factory = new RuleSetFactory(clock);
    final RequestDecider decider = new RequestDecider();
    final RuleSet rules;

    Harness(String yaml) throws Exception {
      rules = factory.build(RulesFileParser.parse(yaml, "rules.yaml"), null);
    }

    String send(String request) {
      String[] words = request.trim().split(" +");
      StatusExchange exchange = new StatusExchange(words[0], words[1]);
      for (int w = 2; w < words.length; w++) {
        if (words[w].equals("from")) {
          exchange.from(words[++w]);
        } else if (words[w].startsWith("user:")) {
          exchange.parameters.put("username", words[w].substring(5));
        } else if (words[w].startsWith("strict:")) {
          exchange.header("X-Strict", words[w].substring(7));
        } else if (words[w].equals("answers")) {
          exchange.status = Integer.parseInt(words[++w]);
        } else if (words[w].equals("reports")) {
          exchange.setResponseHeader("X-Cost", words[++w]);
        } else {
          throw new IllegalArgumentException("unknown word in the script: " + words[w]);
        }
      }
      RuleVerdicts verdicts = decider.decide(exchange, rules, DecisionPoint.FIRST_ENTRY, null);
      if (verdicts == null) {
        return "200";
      }
      if (verdicts.refused()) {
        // the end of a refused request, as at a framework's handler: the refusal's status
        verdicts.requestEnded(429, exchange::responseHeader);
        return "429 " + verdicts.refusedBy().rule.name();
      }
      verdicts.requestEnded(exchange.responseStatus(false), exchange::responseHeader);
      return verdicts.wouldRefuse() != null ? "200 shadow would refuse" : "200";
    }
  }

  /** A {@link FakeExchange} whose application answers a status, and reads parameters. */
  static final class StatusExchange extends HttpExchangeDelegate {
    int status = -1;
    final java.util.Map<String, String> parameters = new java.util.HashMap<>();

    StatusExchange(String method, String path) {
      super(new FakeExchange(method, path));
    }

    StatusExchange from(String address) {
      fake.from(address);
      return this;
    }

    StatusExchange header(String name, String value) {
      fake.header(name, value);
      return this;
    }

    @Override
    public String parameter(String name) {
      return parameters.get(name);
    }

    @Override
    public int responseStatus(boolean uncaught) {
      return status;
    }
  }

  /** Passes every call to a {@link FakeExchange}. */
  abstract static class HttpExchangeDelegate implements io.tollgate.http.HttpExchange {
    final FakeExchange fake;

    HttpExchangeDelegate(FakeExchange fake) {
      this.fake = fake;
    }

    @Override
    public String method() {
      return fake.method();
    }

    @Override
    public String rawPath() {
      return fake.rawPath();
    }

    @Override
    public String remoteAddress() {
      return fake.remoteAddress();
    }

    @Override
    public String header(String name) {
      return fake.header(name);
    }

    @Override
    public List<String> headerLines(String name) {
      return fake.headerLines(name);
    }

    @Override
    public String principalName() {
      return fake.principalName();
    }

    @Override
    public String parameter(String name) {
      return fake.parameter(name);
    }

    @Override
    public String cookie(String name) {
      return fake.cookie(name);
    }

    @Override
    public String route() {
      return fake.route();
    }

    @Override
    public void setResponseHeader(String name, String value) {
      fake.setResponseHeader(name, value);
    }

    @Override
    public void writeRefusal(io.tollgate.http.RefusalMessage refusal) {
      fake.writeRefusal(refusal);
    }

    @Override
    public String responseHeader(String name) {
      return fake.responseHeader(name);
    }
  }
}
