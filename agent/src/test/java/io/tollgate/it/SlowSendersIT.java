package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.it.RawHttp.Framing;
import io.tollgate.testing.attack.SlowSenders;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Slow senders against a {@code global} adaptive-concurrency or concurrency rule of 10 permits, on
 * a real Tomcat with the agent:
 * fifteen connections from one client send {@code POST /login} with {@code Content-Length: 100000}
 * at one byte a second (the app reads the form, so each request holds its permit as long as its
 * body keeps coming), while legitimate clients log in from their own addresses.
 *
 * <p>With {@code per-client} at its default (50% on {@code key: global}) the attacker holds at
 * most half the permits and the legitimate clients keep at least 80% of the successes they had
 * without the attack; with {@code per-client: off} the attacker holds every permit and they
 * starve (the 1,912 successes to 0). Successes are counted as a share of requests sent,
 * not per second: the machine's speed cancels out.
 *
 * <p>Clients are told apart by {@code X-Forwarded-For} from a trusted proxy hop: every socket of
 * the test comes from the loopback address.
 *
 * <p>Each login goes on a connection of its own ({@link RawHttp}), not through the JDK's {@code
 * HttpClient}: on JDK 17, the JVM these tests run in, that client's pool can close a connection it
 * has just handed to the next request (JDK-8338569, fixed in JDK 24). The pool watches an idle
 * connection with a read subscriber that closes it when bytes arrive; taken out for a new
 * request, the connection swaps that subscriber for the request's on the client's selector
 * thread, and when that thread runs late the response comes first, the watcher takes it for data
 * on an idle connection and closes it: {@code HTTP/1.1 header parser received no bytes}, caused
 * by {@code connection closed locally} in {@code ConnectionPool.cleanup}. Three clients logging
 * in back to back on a busy machine met it once in seven CI runs. The server was not at fault:
 * under the same attack, with and without the agent, every response was complete and no byte came
 * on an idle connection (Tomcat closes after each 503 and each 100th response, saying so in {@code
 * Connection: close}). A connection per request has no pool, and a refused request that gets no
 * complete response still fails the test: {@link RawHttp} throws on a missing head or a body
 * shorter than its {@code Content-Length}.
 */
class SlowSendersIT {

  private static final int ATTACK_CONNECTIONS = 15;
  private static final int LEGITIMATE_CLIENTS = 3;
  private static final int REQUESTS_EACH = 60;

  @TempDir Path dir;

  private Path rules(String algorithm, String perClient) throws Exception {
    List<String> lines = new ArrayList<>(List.of(
        "client-ip:",
        "  trusted-proxies: 1",
        "rules:",
        "  - name: login-guard",
        "    algorithm: " + algorithm,
        "    match:",
        "      path: /login",
        "      methods: [POST]",
        "    key: global"));
    lines.addAll(algorithm.equals("concurrency")
        ? List.of("    limit: 10", "    period: 1s")
        : List.of("    min: 8", "    initial: 10", "    max: 10"));
    if (!perClient.isEmpty()) {
      lines.add("    " + perClient);
    }
    return RulesFiles.write(dir, "rules.yaml", lines.toArray(new String[0]));
  }

  @ParameterizedTest(name = "{0}, ''{1}''")
  @CsvSource(delimiter = '|', value = {
      "adaptive-concurrency | ''",
      "adaptive-concurrency | 'per-client: off'",
      "concurrency          | ''",
      "concurrency          | 'per-client: off'",
  })
  void slowSendersHoldOnlyTheirShare(String algorithm, String perClient) throws Exception {
    try (ForkedApp app = ForkedApp.app("servlet-jakarta")
        .withAgent("config=" + rules(algorithm, perClient))
        .start()) {
      double before = successShare(app);
      assertTrue(before >= 0.95, "without the attack nearly every login passes: " + before);

      double during;
      try (SlowSenders attack = new SlowSenders(app.port(), ATTACK_CONNECTIONS)) {
        awaitAttackerHeldOff(app, attack);
        during = successShare(app);
        assertTrue(!loginPasses(app, SlowSenders.ATTACKER), "the attack held on throughout");
      }

      String figures = String.format(Locale.ROOT,
          "%s: legitimate logins passing: %.0f%% without the attack, %.0f%% during it (%s)",
          algorithm, 100 * before, 100 * during,
          perClient.isEmpty() ? "per-client by default" : perClient);
      System.out.println("[SlowSendersIT] " + figures);
      if (perClient.isEmpty()) {
        assertTrue(during >= 0.8 * before, "they keep 80% of their successes: " + figures);
      } else {
        assertTrue(during <= 0.2, "without a share, the slow senders starve them: " + figures);
      }
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  /**
   * The share of logins that pass: each legitimate client (its own address) sends {@link
   * #REQUESTS_EACH} logins one after the other.
   */
  private static double successShare(ForkedApp app) throws Exception {
    ExecutorService clients = Executors.newFixedThreadPool(LEGITIMATE_CLIENTS);
    AtomicInteger passed = new AtomicInteger();
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int c = 0; c < LEGITIMATE_CLIENTS; c++) {
        String address = "198.51.100." + (c + 1);
        done.add(clients.submit(() -> {
          for (int i = 0; i < REQUESTS_EACH; i++) {
            int status = login(app, address).status;
            assertTrue(status == 200 || status == 503 || status == 429, "status " + status);
            if (status == 200) {
              passed.incrementAndGet();
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(5, TimeUnit.MINUTES);
      }
    } finally {
      clients.shutdownNow();
    }
    return passed.get() / (double) (LEGITIMATE_CLIENTS * REQUESTS_EACH);
  }

  /** Whether a quick login from {@code address} passes now. */
  private static boolean loginPasses(ForkedApp app, String address) throws Exception {
    return login(app, address).status == 200;
  }

  /** A login from {@code address}, on a connection of its own (see the class comment). */
  private static RawHttp.Response login(ForkedApp app, String address) throws Exception {
    return RawHttp.send(app.port(), "POST", "/login",
        List.of("X-Forwarded-For: " + address,
            "Content-Type: application/x-www-form-urlencoded"),
        "user=ann&password=right".getBytes(StandardCharsets.US_ASCII), Framing.WHOLE, 1);
  }

  /**
   * Waits until the attacker's slow requests hold all the rule lets it hold: its own quick login
   * is then refused (over its share, or the pool full without one).
   */
  private static void awaitAttackerHeldOff(ForkedApp app, SlowSenders attack) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (loginPasses(app, SlowSenders.ATTACKER)) {
      assertTrue(System.nanoTime() < deadline, "the slow senders fill what they may hold; "
          + attack.answered.get() + " of their connections answered");
      Thread.sleep(50);
    }
  }
}
