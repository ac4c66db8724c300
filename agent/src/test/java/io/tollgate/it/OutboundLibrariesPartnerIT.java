package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.testing.partner.PartnerStub;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The client libraries of {@code test-apps/outbound-libraries}, {@code outbound-okhttp5} and
 * {@code outbound-okhttp3} against a partner that enforces a hard limit (10 a second, {@link
 * PartnerStub}; OkHttp 3, 4 and 5 each in its own app, as two majors cannot share a class path),
 * as {@code OutboundClientIT} (h-outbound-core) runs the JDK's clients: bursts of 50 calls a
 * second. Without the agent the partner refuses many with 429; with an outbound gcra rule of 6 a
 * second (the leaky bucket; 6 for a busy machine's jitter, as there) every call waits its turn,
 * and the partner sees at most its limit in any second and refuses none. {@code on-limit: fail}
 * fails a call with the client's {@code IOException} naming the rule, and a partner's {@code
 * Retry-After} holds the next calls. The same pacing holds with the agent attached to the running
 * app ({@code attach}), and for three instances on one Redis, one client module each.
 */
class OutboundLibrariesPartnerIT {

  private static final int PARTNER_LIMIT = PartnerRules.PARTNER_LIMIT;
  private static final String REFUSED = "io.tollgate.bootstrap.OutboundCallRefused";

  @TempDir static Path dir;
  private static Path rules;
  /** The apps started, by name and "+agent", kept for the rows that follow. */
  private static final Map<String, ForkedApp> APPS = new LinkedHashMap<>();

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

  static Burst burst(ForkedApp app, String client, String url, int calls, int perSecond)
      throws Exception {
    return Burst.of(app, client, url, calls, perSecond);
  }

  private static ForkedApp app(String name, boolean withAgent) throws Exception {
    String key = name + (withAgent ? "+agent" : "");
    ForkedApp app = APPS.get(key);
    if (app == null) {
      app = withAgent
          ? ForkedApp.app(name).withAgent("config=" + rules).start()
          : ForkedApp.app(name).start();
      APPS.put(key, app);
      if (withAgent) {
        app.awaitOutput("outbound rules: paced, fails, honours", Duration.ofSeconds(60));
      }
    }
    return app;
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(delimiter = '|', value = {
    "outbound-libraries | apache4",
    "outbound-libraries | apache5",
    "outbound-libraries | apache5-async",
    "outbound-libraries | okhttp",
    "outbound-libraries | okhttp-async",
    "outbound-okhttp5   | okhttp",
    "outbound-okhttp5   | okhttp-async",
    "outbound-okhttp3   | okhttp",
    "outbound-okhttp3   | okhttp-async",
  })
  void withoutTheAgentThePartnerRefusesTheBurstWithItSeesAtMostItsLimit(String appName,
      String client) throws Exception {
    try (PartnerStub partner = PartnerStub.start(PARTNER_LIMIT, Duration.ofSeconds(1))) {
      Burst plain =
          burst(app(appName, false), client, partner.url("/paced/o"), 50, 50);
      assertTrue(partner.refused() > 0, client + " without the agent: " + plain);

      // The rule decides when a call leaves the agent; a client's first calls (its classes
      // loading, its first connections) may then take a few hundred ms longer than the next,
      // reaching the partner together. Warmed up on a path no rule matches, as an app would be.
      ForkedApp withAgent = app(appName, true);
      burst(withAgent, client, partner.url("/warm-up"), 5, 10);
      partner.reset();
      Burst paced =
          burst(withAgent, client, partner.url("/paced/o"), 50, 50);
      assertEquals(50, paced.count("200"), client + ": every call answered 200: " + paced);
      assertEquals(0, partner.refused(), client + ": the partner refused none: " + paced);
      assertTrue(partner.mostAcceptedInAnyWindow() <= PARTNER_LIMIT, client + ": the partner saw "
          + partner.mostAcceptedInAnyWindow() + " in one second: " + partner.acceptedAtMillis());
    }
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(delimiter = '|', value = {
    // app              | client       | the app gets the partner's 429 (HttpClient 5 retries it)
    "outbound-libraries | apache4      | 1",
    "outbound-libraries | apache5      | 0",
    "outbound-libraries | apache5-async | 0",
    "outbound-libraries | okhttp       | 1",
    "outbound-libraries | okhttp-async | 1",
    "outbound-okhttp5   | okhttp       | 1",
    "outbound-okhttp5   | okhttp-async | 1",
    "outbound-okhttp3   | okhttp       | 1",
    "outbound-okhttp3   | okhttp-async | 1",
  })
  void onLimitFailThrowsTheClientsIoExceptionAndAPartnersRetryAfterHoldsTheCalls(String appName,
      String client, int partners429s) throws Exception {
    ForkedApp app = app(appName, true);
    try (PartnerStub partner = PartnerStub.start(1000, Duration.ofSeconds(1))) {
      // 2 an hour for all the app's calls: whatever the rows before took, 2 of 4 at least fail
      Burst failed =
          burst(app, client, partner.url("/fails/orders"), 4, 50);
      assertEquals(4, failed.count("200") + failed.count(REFUSED), client + ": " + failed);
      assertTrue(failed.count(REFUSED) >= 2, client + ": " + failed);
      assertEquals(failed.count("200"), partner.accepted(), client + ": failed calls never left");

      partner.reset();
      partner.refuseNext(1, 2);
      Burst held =
          burst(app, client, partner.url("/honours/" + client), 5, 5);
      assertEquals(partners429s, held.count("429"), client + ": the partner's 429s: " + held);
      assertEquals(5 - partners429s, held.count("200"), client + ": " + held);
      assertEquals(1, partner.refused(), client + ": no call went out while held: " + held);
    }
  }

  /**
   * {@code attach} into the running app, whose clients' classes were loaded (and used) before the
   * agent came: each client is paced as it is with the agent at start.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
    "outbound-libraries | apache4 apache5 apache5-async okhttp",
    "outbound-okhttp3   | okhttp",
  })
  void attachedToARunningAppTheLoadedLibraryClientsArePacedToo(String appName, String clientNames)
      throws Exception {
    String[] clients = clientNames.split(" ");
    try (PartnerStub partner = PartnerStub.start(PARTNER_LIMIT, Duration.ofSeconds(1));
        ForkedApp app = ForkedApp.app(appName).start()) {
      for (String client : clients) {
        burst(app, client, partner.url("/warm-up"), 2, 10); // the client's classes load
      }
      CliIT.Result attached = CliIT.run("attach", Long.toString(app.pid()), "config=" + rules);
      assertEquals(0, attached.exitCode, attached.out + attached.err);
      app.awaitOutput("outbound rules: paced, fails, honours", Duration.ofSeconds(60));
      for (String client : clients) {
        // Its woven classes run cold: warmed up on a path no rule matches, as after a start.
        burst(app, client, partner.url("/warm-up"), 3, 10);
        partner.reset();
        Burst paced = burst(app, client, partner.url("/paced/o"), 30, 50);
        assertEquals(30, paced.count("200"), client + " after attach: every call answered 200: "
            + paced);
        assertEquals(0, partner.refused(), client + " after attach: the partner refused none: "
            + paced);
        assertTrue(partner.mostAcceptedInAnyWindow() <= PARTNER_LIMIT, client + " after attach:"
            + " the partner saw " + partner.mostAcceptedInAnyWindow() + " in one second: "
            + partner.acceptedAtMillis());
      }
    }
  }

  /**
   * Three instances on one Redis, one client module each (Apache HttpClient 4, 5 and OkHttp 5),
   * bursting at once: together the partner sees at most its limit in any second, and refuses none.
   */
  @Test
  @ExtendWith(RedisServerExtension.class)
  void threeInstancesOnOneRedisWithTheLibraryClientsTogetherStayUnderThePartnersLimit(
      RedisServer redis) throws Exception {
    Path onRedis = PartnerRules.write(dir, "outbound-redis.yaml",
        PartnerRules.onRedis(redis.uri()), PartnerRules.paced("on-failure: local"));
    // app, client: one per client module
    String[][] instances = {
        {"outbound-libraries", "apache4"},
        {"outbound-libraries", "apache5"},
        {"outbound-okhttp5", "okhttp"},
    };
    ExecutorService threads = Executors.newFixedThreadPool(instances.length);
    List<ForkedApp> apps = new ArrayList<>();
    try (PartnerStub partner = PartnerStub.start(PARTNER_LIMIT, Duration.ofSeconds(1))) {
      List<Future<ForkedApp>> starts = new ArrayList<>();
      for (String[] instance : instances) {
        starts.add(threads.submit(
            () -> ForkedApp.app(instance[0]).withAgent("config=" + onRedis).start()));
      }
      for (Future<ForkedApp> start : starts) {
        apps.add(start.get(180, TimeUnit.SECONDS));
      }
      for (int i = 0; i < apps.size(); i++) {
        ForkedApp app = apps.get(i);
        app.awaitOutput("[tollgate] ready", Duration.ofSeconds(60));
        app.awaitOutput("connected to", Duration.ofSeconds(60));
        // The client and the Redis client warmed up: on a busy machine their first calls are slow.
        burst(app, instances[i][1], partner.url("/paced/warm-up"), 3, 10);
      }
      partner.reset();
      List<Future<Burst>> bursts = new ArrayList<>();
      for (int i = 0; i < apps.size(); i++) {
        ForkedApp app = apps.get(i);
        String client = instances[i][1];
        bursts.add(threads.submit(() -> burst(app, client, partner.url("/paced/o"), 20, 20)));
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
      assertEquals(60, answered, "every call of the three answered 200: " + outcomes + "\n"
          + String.join("\n", logs));
      assertEquals(0, partner.refused(), "the partner refused none: " + outcomes);
      assertTrue(partner.mostAcceptedInAnyWindow() <= PARTNER_LIMIT, "the partner saw "
          + partner.mostAcceptedInAnyWindow() + " in one second: " + partner.acceptedAtMillis());
    } finally {
      for (ForkedApp app : apps) {
        app.close();
      }
      threads.shutdownNow();
    }
  }
}
