package io.tollgate.it;

import static io.tollgate.testing.Conditions.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.stores.redis.RedisKeys;
import io.tollgate.testing.partner.PartnerStub;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The app's own calls to a partner that enforces a hard limit (10 a second, {@link PartnerStub}),
 * made with the JDK's clients by {@code test-apps/outbound-client}: bursts of 50 calls a second.
 * Without the agent the partner refuses many with 429; with an outbound gcra rule (the leaky
 * bucket) every call waits its turn, and the partner sees at most its limit in any second and
 * refuses none ({@link PartnerRules}: why the rule paces at 6 a second, not 10). On Redis the
 * rule's {@code on-failure: local} keeps a slow Redis from letting calls out unpaced.
 */
@ExtendWith(RedisServerExtension.class)
class OutboundClientIT {

  private static final String APP = "outbound-client";
  private static final String[] CLIENTS = {"jdk-sync", "jdk-async", "urlconnection"};
  private static final int PARTNER_LIMIT = PartnerRules.PARTNER_LIMIT;

  @TempDir Path dir;

  /** The outbound rules of these tests, one per path of the partner, and a backend's lines. */
  private Path rules(List<String> backend) throws Exception {
    return PartnerRules.write(dir, "outbound.yaml", backend,
        PartnerRules.paced("on-failure: local"), PartnerRules.fails(5), PartnerRules.honours());
  }

  static Burst burst(ForkedApp app, String client, String url, int calls, int perSecond)
      throws Exception {
    return Burst.of(app, client, url, calls, perSecond);
  }

  private static void assertPartnerKeptUnderItsLimit(PartnerStub partner, Burst burst, int calls,
      String what) {
    assertEquals(calls, burst.count("200"), what + ": every call answered 200: " + burst);
    assertEquals(0, partner.refused(), what + ": the partner refused none: " + burst);
    assertTrue(partner.mostAcceptedInAnyWindow() <= PARTNER_LIMIT, what + ": the partner saw "
        + partner.mostAcceptedInAnyWindow() + " in one second: " + partner.acceptedAtMillis());
  }

  /** The JDK's clients are the JDK's own classes: woven on the build's JDK and on JDK 25. */
  static Stream<Jdk> jdks() {
    return Stream.of(Jdk.current(), Jdk.jdk25());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void withoutTheAgentThePartnerRefusesTheBurstsWithTheAgentItSeesAtMostItsLimit(Jdk jdk)
      throws Exception {
    Path rules = rules(List.of());
    try (PartnerStub partner = PartnerStub.start(PARTNER_LIMIT, Duration.ofSeconds(1))) {
      try (ForkedApp app = ForkedApp.app(APP).on(jdk).start()) {
        for (String client : CLIENTS) {
          partner.reset();
          Burst burst = burst(app, client, partner.url("/paced/orders"), 50, 50);
          assertTrue(burst.count("429") > 0 && partner.refused() > 0,
              client + " without the agent: the partner's 429s reach the app: " + burst);
        }
      }
      try (ForkedApp app = ForkedApp.app(APP).on(jdk).withAgent("config=" + rules).start()) {
        app.awaitOutput("outbound rules: paced, fails, honours", Duration.ofSeconds(60));
        awaitReady(app);
        for (String client : CLIENTS) {
          // A client's first calls (its classes, its threads, a cold JIT) may leave late on a busy
          // machine, after the agent let them go on time, and bunch up with the next: warm it up.
          burst(app, client, partner.url("/paced/warm-up"), 3, 10);
          partner.reset();
          Burst burst = burst(app, client, partner.url("/paced/orders"), 50, 50);
          assertPartnerKeptUnderItsLimit(partner, burst, 50, client + " with the agent");
        }
      }
    }
  }

  @Test
  void onLimitFailThrowsTheClientsIoExceptionNamingTheRuleAndAPartnersRetryAfterHoldsTheCalls()
      throws Exception {
    Path rules = rules(List.of());
    try (PartnerStub partner = PartnerStub.start(1000, Duration.ofSeconds(1));
        ForkedApp app = ForkedApp.app(APP).withAgent("config=" + rules).start()) {
      app.awaitOutput("outbound rules:", Duration.ofSeconds(60));
      awaitReady(app);
      int sent = 0;
      for (String client : CLIENTS) {
        Burst burst = burst(app, client, partner.url("/fails/orders"), 4, 50);
        int allowed = Math.max(0, 5 - sent);
        assertEquals(Math.min(4, allowed), burst.count("200"), client + ": " + burst);
        assertEquals(4 - Math.min(4, allowed),
            burst.count("io.tollgate.bootstrap.OutboundCallRefused"), client + ": " + burst);
        sent += Math.min(4, allowed);
      }
      app.awaitOutput("outbound rule 'fails' failed GET 127.0.0.1:" + partner.port()
          + "/fails/orders", Duration.ofSeconds(10));

      for (String client : CLIENTS) {
        partner.reset();
        partner.refuseNext(1, 2);
        Burst burst = burst(app, client, partner.url("/honours/orders"), 5, 5);
        assertEquals(1, burst.count("429"), client + ": the partner's one 429: " + burst);
        assertEquals(4, burst.count("200"), client + ": the calls after it waited: " + burst);
        assertEquals(1, partner.refused(), client + ": no call went out while held: " + burst);
        assertTrue(longestMillis(burst) >= 1000, client + ": the next call was held: " + burst);
      }
      app.awaitOutput("outbound rule 'honours': 127.0.0.1:" + partner.port()
          + " answered 429 with Retry-After, asking to wait 2s", Duration.ofSeconds(10));
    }
  }

  @Test
  void attachedToARunningAppTheJdksLoadedClientsArePacedToo() throws Exception {
    Path rules = rules(List.of());
    try (PartnerStub partner = PartnerStub.start(PARTNER_LIMIT, Duration.ofSeconds(1));
        ForkedApp app = ForkedApp.app(APP).start()) {
      for (String client : CLIENTS) {
        burst(app, client, partner.url("/paced/warm-up"), 2, 10); // the clients' classes load
      }
      CliIT.Result attached = CliIT.run("attach", Long.toString(app.pid()), "config=" + rules);
      assertEquals(0, attached.exitCode, attached.out + attached.err);
      app.awaitOutput("outbound rules: paced, fails, honours", Duration.ofSeconds(60));
      for (String client : CLIENTS) {
        partner.reset();
        Burst burst = burst(app, client, partner.url("/paced/orders"), 30, 50);
        assertPartnerKeptUnderItsLimit(partner, burst, 30, client + " after attach");
      }
    }
  }

  @Test
  void threeInstancesOnOneRedisTogetherStayUnderThePartnersLimitAndShareItsWaits(
      RedisServer redis)
      throws Exception {
    Path rules = rules(PartnerRules.onRedis(redis.uri()));
    ExecutorService threads = Executors.newFixedThreadPool(3);
    List<ForkedApp> apps = new ArrayList<>();
    try (PartnerStub partner = PartnerStub.start(PARTNER_LIMIT, Duration.ofSeconds(1))) {
      List<Future<ForkedApp>> starts = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        starts.add(threads.submit(() -> ForkedApp.app(APP).withAgent("config=" + rules).start()));
      }
      for (Future<ForkedApp> start : starts) {
        apps.add(start.get(180, TimeUnit.SECONDS));
      }
      for (int i = 0; i < apps.size(); i++) {
        ForkedApp app = apps.get(i);
        app.awaitOutput("outbound rules:", Duration.ofSeconds(60));
        awaitReady(app);
        app.awaitOutput("connected to", Duration.ofSeconds(60));
        // Warms the client and the Redis client up: on a busy machine their first calls are slow.
        burst(app, CLIENTS[i], partner.url("/paced/warm-up"), 3, 10);
      }
      // One instance's partner 429 holds the other two: the wait is shared on Redis. 30 s is
      // past the rule's max-wait (5 s), so the held calls fail at once, and never leave.
      partner.reset();
      partner.refuseNext(1, 30);
      Burst first = burst(apps.get(0), CLIENTS[0], partner.url("/honours/orders"), 1, 5);
      assertEquals(1, first.count("429"), "the first instance gets the partner's 429: " + first);
      String holdKey = RedisKeys.partnerHoldKey("outbound.honours", "");
      awaitTrue(() -> Long.valueOf(1).equals(redis.call("EXISTS", holdKey)),
          "the wait is shared on redis");
      for (int i = 1; i < apps.size(); i++) {
        Burst held = burst(apps.get(i), CLIENTS[i], partner.url("/honours/orders"), 2, 5);
        assertEquals(2, held.count("io.tollgate.bootstrap.OutboundCallRefused"),
            "instance " + i + " holds the calls the partner asked the first to hold: " + held);
      }
      assertEquals(0, partner.accepted(), "no call went out while held");
      assertEquals(1, partner.refused(), "the partner refused the first call only");
      apps.get(0).awaitOutput("outbound rule 'honours': 127.0.0.1:" + partner.port()
          + " answered 429 with Retry-After, asking to wait 30s", Duration.ofSeconds(10));
      for (int i = 1; i < apps.size(); i++) {
        assertEquals(0, ItSupport.count(apps.get(i), "answered 429 with Retry-After"),
            "logged once, by the instance that learnt it");
      }

      partner.reset();
      List<Future<Burst>> bursts = new ArrayList<>();
      for (int i = 0; i < apps.size(); i++) {
        ForkedApp app = apps.get(i);
        String client = CLIENTS[i];
        bursts.add(threads.submit(
            () -> burst(app, client, partner.url("/paced/orders"), 20, 20)));
      }
      int answered = 0;
      List<Burst> outcomes = new ArrayList<>();
      for (Future<Burst> burst : bursts) {
        Burst b = burst.get(120, TimeUnit.SECONDS);
        outcomes.add(b);
        answered += b.count("200");
      }
      List<String> logs = new ArrayList<>();
      for (ForkedApp app : apps) {
        logs.addAll(app.agentLog());
      }
      assertEquals(60, answered, "every call of the three answered 200: " + outcomes
          + "; the partner accepted at (ms) " + partner.acceptedAtMillis() + "\n"
          + String.join("\n", logs));
      assertEquals(0, partner.refused(), "the partner refused none");
      assertTrue(partner.mostAcceptedInAnyWindow() <= PARTNER_LIMIT, "the partner saw "
          + partner.mostAcceptedInAnyWindow() + " in one second: " + partner.acceptedAtMillis());
    } finally {
      for (ForkedApp app : apps) {
        app.close();
      }
      threads.shutdownNow();
    }
  }

  /**
   * Until the agent is ready, the application's calls go out unlimited (they never wait for the
   * agent's start, see {@code TollgateBridge.enterIfStarted}): the bursts come after it. By then
   * the JDK client the app made in {@code main}, as the agent started, is woven: in a CI run it
   * was not (its class defined as the agent turned the JDK's weaving on, {@code
   * JdkWeavingSwitch}), and its calls went out unlimited.
   */
  private static void awaitReady(ForkedApp app) throws InterruptedException {
    app.awaitOutput("[tollgate] ready", Duration.ofSeconds(60));
    assertTrue(app.output().stream()
            .anyMatch(line -> line.contains("instrumented jdk.internal.net.http.HttpClientImpl")),
        "the JDK's HttpClient is woven once the agent is ready:\n"
            + String.join("\n", app.output()));
  }

  private static long longestMillis(Burst burst) {
    Matcher m = Pattern.compile("\"longestMillis\":(\\d+)").matcher(burst.json());
    return m.find() ? Long.parseLong(m.group(1)) : -1;
  }
}
