package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.testing.partner.PartnerStub;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Spring's clients end to end, as {@code OutboundLibrariesPartnerIT} runs the libraries under
 * them: {@code test-apps/outbound-spring6} (Spring 6.2's {@code RestTemplate}, {@code RestClient}
 * and {@code WebClient} on the JDK's HttpClient, Apache HttpClient 5 and OkHttp) and {@code
 * outbound-spring5} (Spring 5.3's {@code RestTemplate} on Apache HttpClient 4.5 and {@code
 * HttpURLConnection}) burst 50 calls a second at a partner that allows 10 a second ({@link
 * PartnerStub}). Without the agent the partner's 429s reach the app; with an outbound gcra rule of
 * 6 a second (a margin for a busy machine's jitter, as in {@code OutboundClientIT}) every call
 * waits its turn and is counted once (the rule's {@code sent} counter and the partner's count are
 * the calls made, however Spring and the client nest), the partner sees at most its limit in any
 * second and refuses none. {@code on-limit: fail} surfaces as the exception Spring users see,
 * caused by the agent's {@code OutboundCallRefused}; a partner's {@code Retry-After} holds the
 * next calls.
 *
 * <p>WebClient's own connector, Reactor Netty, is intercepted by no module: its calls go out
 * undecided. A WebClient call subscribed on one of Reactor's non-blocking threads is never parked
 * there: over its limit it fails fast.
 */
class OutboundSpringPartnerIT {

  private static final int PARTNER_LIMIT = PartnerRules.PARTNER_LIMIT;
  private static final String REFUSED = "io.tollgate.bootstrap.OutboundCallRefused";
  private static final String REST_FAILED =
      "org.springframework.web.client.ResourceAccessException";
  private static final String WEB_FAILED =
      "org.springframework.web.reactive.function.client.WebClientRequestException";

  @TempDir static Path dir;
  private static Path rules;
  /** The apps started, by name and "+agent", kept for the rows that follow. */
  private static final Map<String, ForkedApp> APPS = new LinkedHashMap<>();
  /** The Prometheus port of each app with the agent. */
  private static final Map<String, Integer> METRICS_PORTS = new LinkedHashMap<>();

  @BeforeAll
  static void writeTheRules() throws Exception {
    rules = PartnerRules.write(dir, "outbound.yaml", List.of(),
        PartnerRules.paced(), PartnerRules.fails(2), PartnerRules.honours());
  }

  @AfterAll
  static void stop() throws Exception {
    for (ForkedApp app : APPS.values()) {
      app.close();
    }
  }

  private static ForkedApp app(String name, boolean withAgent) throws Exception {
    String key = name + (withAgent ? "+agent" : "");
    ForkedApp app = APPS.get(key);
    if (app == null) {
      if (withAgent) {
        int metricsPort = ForkedApp.freePort();
        app = ForkedApp.app(name)
            .withAgent("config=" + rules + ",metrics-port=" + metricsPort).start();
        METRICS_PORTS.put(name, metricsPort);
      } else {
        app = ForkedApp.app(name).start();
      }
      APPS.put(key, app);
      if (withAgent) {
        app.awaitOutput("outbound rules: paced, fails, honours", Duration.ofSeconds(60));
        app.awaitOutput("[tollgate] ready", Duration.ofSeconds(60));
        ItSupport.awaitCount(app, "Prometheus metrics at", 1, Duration.ofSeconds(30));
      }
    }
    return app;
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(delimiter = '|', value = {
    "outbound-spring6 | resttemplate-jdk",
    "outbound-spring6 | resttemplate-apache5",
    "outbound-spring6 | resttemplate-okhttp",
    "outbound-spring6 | resttemplate-simple",
    "outbound-spring6 | restclient-jdk",
    "outbound-spring6 | restclient-apache5",
    "outbound-spring6 | restclient-okhttp",
    "outbound-spring6 | webclient-jdk",
    "outbound-spring6 | webclient-apache5",
    "outbound-spring5 | resttemplate-apache4",
    "outbound-spring5 | resttemplate-simple",
  })
  void withoutTheAgentThePartnersRefusalsReachTheAppWithItEveryCallWaitsItsTurnCountedOnce(
      String appName, String client) throws Exception {
    try (PartnerStub partner = PartnerStub.start(PARTNER_LIMIT, Duration.ofSeconds(1))) {
      Burst plain = Burst.of(app(appName, false), client, partner.url("/paced/o"), 50, 50);
      assertTrue(plain.count("429") > 0 && partner.refused() > 0,
          client + " without the agent: the partner's 429s reach the app: " + plain);

      // Warmed up on a path no rule matches, as an app would be: a client's first calls (its
      // classes loading, its first connections) may leave late and bunch up with the next.
      ForkedApp withAgent = app(appName, true);
      Burst.of(withAgent, client, partner.url("/warm-up"), 5, 10);
      partner.reset();
      long sentBefore = sent(appName, "paced");
      Burst paced = Burst.of(withAgent, client, partner.url("/paced/o"), 50, 50);
      assertEquals(50, paced.count("200"), client + ": every call answered 200: " + paced);
      assertEquals(0, partner.refused(), client + ": the partner refused none: " + paced);
      assertTrue(partner.mostAcceptedInAnyWindow() <= PARTNER_LIMIT, client + ": the partner saw "
          + partner.mostAcceptedInAnyWindow() + " in one second: " + partner.acceptedAtMillis());
      assertEquals(50, partner.accepted(), client + ": the partner's count is the calls made");
      assertEquals(50, sent(appName, "paced") - sentBefore,
          client + ": the rule counted each call once");
    }
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(delimiter = '|', value = {
    // app            | client               | what Spring throws | the app gets the partner's 429
    // (Apache HttpClient 5, classic and async, retries it once after its Retry-After, below the
    // send: the app gets the retry's 200)
    "outbound-spring6 | resttemplate-jdk     | " + REST_FAILED + " | 1",
    "outbound-spring6 | resttemplate-apache5 | " + REST_FAILED + " | 0",
    "outbound-spring6 | resttemplate-okhttp  | " + REST_FAILED + " | 1",
    "outbound-spring6 | resttemplate-simple  | " + REST_FAILED + " | 1",
    "outbound-spring6 | restclient-jdk       | " + REST_FAILED + " | 1",
    "outbound-spring6 | restclient-apache5   | " + REST_FAILED + " | 0",
    "outbound-spring6 | restclient-okhttp    | " + REST_FAILED + " | 1",
    "outbound-spring6 | webclient-jdk        | " + WEB_FAILED + "  | 1",
    "outbound-spring6 | webclient-apache5    | " + WEB_FAILED + "  | 0",
    "outbound-spring5 | resttemplate-apache4 | " + REST_FAILED + " | 1",
    "outbound-spring5 | resttemplate-simple  | " + REST_FAILED + " | 1",
  })
  void onLimitFailThrowsWhatSpringThrowsForAnIoErrorAndAPartnersRetryAfterHoldsTheCalls(
      String appName, String client, String springThrows, int partners429s) throws Exception {
    ForkedApp app = app(appName, true);
    try (PartnerStub partner = PartnerStub.start(1000, Duration.ofSeconds(1))) {
      // 2 an hour for all the app's calls: whatever the rows before took, 2 of 4 at least fail
      Burst failed = Burst.of(app, client, partner.url("/fails/orders"), 4, 50);
      assertEquals(4, failed.count("200") + failed.count(springThrows), client + ": " + failed);
      assertTrue(failed.count(springThrows) >= 2, client + ": " + failed);
      assertTrue(failed.json().contains("\"" + springThrows + "\":\"" + REFUSED),
          client + ": Spring's exception is caused by " + REFUSED + ": " + failed);
      assertTrue(failed.json().contains("Tollgate outbound rule 'fails' did not send GET"),
          client + ": its message is the refusal's: " + failed);
      assertEquals(failed.count("200"), partner.accepted(), client + ": failed calls never left");

      partner.reset();
      partner.refuseNext(1, 2);
      Burst held = Burst.of(app, client, partner.url("/honours/" + client), 5, 5);
      assertEquals(partners429s, held.count("429"), client + ": the partner's 429s: " + held);
      assertEquals(5 - partners429s, held.count("200"), client + ": " + held);
      assertEquals(1, partner.refused(), client + ": no call went out while held: " + held);
    }
  }

  /**
   * {@code WebClient} subscribed on Reactor's parallel scheduler sends its calls there, on a
   * thread that must never block: a call with room goes out, one that would wait its turn fails
   * fast instead, and the partner still sees at most its limit.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"webclient-jdk-parallel", "webclient-apache5-parallel"})
  void onANonBlockingThreadACallOverTheLimitFailsFastInsteadOfParkingTheThread(String client)
      throws Exception {
    ForkedApp app = app("outbound-spring6", true);
    try (PartnerStub partner = PartnerStub.start(PARTNER_LIMIT, Duration.ofSeconds(1))) {
      Burst.of(app, client, partner.url("/warm-up"), 5, 10);
      partner.reset();
      Burst burst = Burst.of(app, client, partner.url("/paced/" + client), 50, 50);
      assertTrue(burst.count("200") >= 1, client + ": " + burst);
      assertEquals(50, burst.count("200") + burst.count(WEB_FAILED), client + ": " + burst);
      assertEquals(0, partner.refused(), client + ": the partner refused none: " + burst);
      assertTrue(partner.mostAcceptedInAnyWindow() <= PARTNER_LIMIT, client + ": the partner saw "
          + partner.mostAcceptedInAnyWindow() + " in one second: " + partner.acceptedAtMillis());
      app.awaitOutput("its thread must not wait (parallel-", Duration.ofSeconds(10));
    }
  }

  /**
   * {@code WebClient}'s default connector, Reactor Netty, is not one of the intercepted clients:
   * with the agent and a rule for its destination its calls go out undecided, uncounted, and the
   * partner's 429s reach the app as they would without the agent.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"webclient-netty"})
  void webClientOnReactorNettyIsNotInterceptedItsCallsGoOutUndecided(String client)
      throws Exception {
    ForkedApp app = app("outbound-spring6", true);
    try (PartnerStub partner = PartnerStub.start(PARTNER_LIMIT, Duration.ofSeconds(1))) {
      long sentBefore = sent("outbound-spring6", "paced");
      Burst burst = Burst.of(app, client, partner.url("/paced/netty"), 50, 50);
      assertEquals(50, burst.count("200") + burst.count("429"), client + ": " + burst);
      assertTrue(burst.count("429") > 0 && partner.refused() > 0, client + ": " + burst);
      assertEquals(50, partner.accepted() + partner.refused(), "every call reached the partner");
      assertEquals(sentBefore, sent("outbound-spring6", "paced"), "no call was decided");
    }
  }

  /**
   * Attached to the app while it runs, Spring's clients loaded and in use: their calls are paced
   * as with the agent at start.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
    // app            | its clients                     | the clients' sends, woven as attached
    "outbound-spring6 | resttemplate-jdk,resttemplate-apache5,restclient-okhttp,webclient-jdk,"
        + "webclient-apache5 | jdk.internal.net.http.HttpClientImpl,"
        + "org.apache.hc.client5.http.impl.classic.InternalHttpClient,"
        + "okhttp3.internal.connection.RealCall,"
        + "org.apache.hc.client5.http.impl.async.InternalAbstractHttpAsyncClient",
    "outbound-spring5 | resttemplate-apache4,resttemplate-simple"
        + " | org.apache.http.impl.client.InternalHttpClient,"
        + "sun.net.www.protocol.http.HttpURLConnection",
  })
  void attachedToTheRunningAppSpringsClientsArePacedToo(String appName, String clients,
      String sends) throws Exception {
    try (PartnerStub partner = PartnerStub.start(PARTNER_LIMIT, Duration.ofSeconds(1));
        ForkedApp app = ForkedApp.app(appName).start()) {
      for (String client : clients.split(",")) {
        Burst.of(app, client, partner.url("/warm-up"), 5, 10); // the clients' classes load
      }
      CliIT.Result attached = CliIT.run("attach", Long.toString(app.pid()), "config=" + rules);
      assertEquals(0, attached.exitCode, attached.out + attached.err);
      app.awaitOutput("outbound rules: paced, fails, honours", Duration.ofSeconds(60));
      // until the agent is ready and has woven a loaded send, calls through it go out undecided
      ItSupport.awaitCount(app, "ready; watching", 1, ItSupport.RELOAD_TIMEOUT);
      for (String send : sends.split(",")) {
        ItSupport.awaitCount(app, "instrumented " + send + " (already loaded)", 1,
            ItSupport.RELOAD_TIMEOUT);
      }
      for (String client : clients.split(",")) {
        partner.reset();
        Burst burst = Burst.of(app, client, partner.url("/paced/attached"), 30, 50);
        assertEquals(30, burst.count("200"), client + " after attach: " + burst);
        assertEquals(0, partner.refused(), client + " after attach: " + burst);
        assertTrue(partner.mostAcceptedInAnyWindow() <= PARTNER_LIMIT, client + ": the partner"
            + " saw " + partner.mostAcceptedInAnyWindow() + " in one second: "
            + partner.acceptedAtMillis());
      }
    }
  }

  /** The {@code sent} counter of the outbound rule {@code rule} in the app's agent. */
  private static long sent(String appName, String rule) throws Exception {
    HttpResponse<String> scrape = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + METRICS_PORTS.get(appName) + "/metrics"))
            .timeout(Duration.ofSeconds(20)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, scrape.statusCode());
    Matcher m = Pattern.compile("tollgate_outbound_sent_total\\{rule=\"" + rule + "\"\\} (\\d+)")
        .matcher(scrape.body());
    return m.find() ? Long.parseLong(m.group(1)) : 0;
  }
}
