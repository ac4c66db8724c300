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
 * The JAX-RS client API of Jersey, RESTEasy and CXF ({@code test-apps/outbound-jaxrs-*}: {@code
 * client.target(url).request().get()}, and {@code .async().get()}) against a partner that enforces
 * a hard limit (10 a second, {@link PartnerStub}), as {@code OutboundLibrariesPartnerIT} runs the
 * client libraries. No module knows JAX-RS: each implementation's call is decided by the module of
 * the client it sends through (Jersey: {@code HttpURLConnection}; RESTEasy: Apache HttpClient 4;
 * CXF: {@code java.net.http.HttpClient}, or {@code HttpURLConnection} when forced), once, which
 * the rule's {@code sent} count and the partner's count both show.
 */
class OutboundJaxRsPartnerIT {

  private static final int PARTNER_LIMIT = PartnerRules.PARTNER_LIMIT;
  private static final String REFUSED = "io.tollgate.bootstrap.OutboundCallRefused";
  private static final String PROCESSING_EXCEPTION = "jakarta.ws.rs.ProcessingException";
  /** CXF sends through the JDK's HttpURLConnection, not its HttpClient, with this property. */
  private static final String CXF_ON_URLCONNECTION =
      "-Dorg.apache.cxf.transport.http.forceURLConnection=true";

  @TempDir static Path dir;
  private static Path rules;
  /** The apps started, by name, options and "+agent", kept for the rows that follow. */
  private static final Map<String, Started> APPS = new LinkedHashMap<>();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  /** An app and the port of its agent's Prometheus endpoint (0 without the agent). */
  private static final class Started {
    final ForkedApp app;
    final int metricsPort;

    Started(ForkedApp app, int metricsPort) {
      this.app = app;
      this.metricsPort = metricsPort;
    }
  }

  @BeforeAll
  static void writeTheRules() throws Exception {
    rules = PartnerRules.write(dir, "outbound.yaml", List.of(),
        PartnerRules.paced(), PartnerRules.fails(2));
  }

  @AfterAll
  static void stop() throws Exception {
    for (Started started : APPS.values()) {
      started.app.close();
    }
  }

  /** {@code name} started with the JVM option {@code option} (none when empty), kept. */
  private static Started app(String name, String option, boolean withAgent) throws Exception {
    String key = name + " " + option + (withAgent ? "+agent" : "");
    Started started = APPS.get(key);
    if (started == null) {
      ForkedApp.Options options = ForkedApp.app(name);
      if (!option.isEmpty()) {
        options.jvmOption(option);
      }
      int metricsPort = 0;
      if (withAgent) {
        metricsPort = ForkedApp.freePort();
        options.withAgent("config=" + rules + ",metrics-port=" + metricsPort);
      }
      started = new Started(options.start(), metricsPort);
      APPS.put(key, started);
      if (withAgent) {
        started.app.awaitOutput("outbound rules: paced, fails", Duration.ofSeconds(60));
        started.app.awaitOutput("[tollgate] ready", Duration.ofSeconds(60));
      }
    }
    return started;
  }

  @ParameterizedTest(name = "{0} {2}: {1}")
  @CsvSource(delimiter = '|', value = {
    // app                  | client      | JVM option
    "outbound-jaxrs-jersey   | jaxrs       | ''",
    "outbound-jaxrs-jersey   | jaxrs-async | ''",
    "outbound-jaxrs-resteasy | jaxrs       | ''",
    "outbound-jaxrs-resteasy | jaxrs-async | ''",
    "outbound-jaxrs-cxf      | jaxrs       | ''",
    "outbound-jaxrs-cxf      | jaxrs-async | ''",
    "outbound-jaxrs-cxf      | jaxrs       | " + CXF_ON_URLCONNECTION,
  })
  void withoutTheAgentThePartnersRefusalsReachTheAppWithItEachCallIsPacedOnce(String appName,
      String client, String option) throws Exception {
    String what = appName + " " + option + " " + client;
    try (PartnerStub partner = PartnerStub.start(PARTNER_LIMIT, Duration.ofSeconds(1))) {
      Burst plain = Burst.of(app(appName, option, false).app, client, partner.url("/paced/o"),
          50, 50);
      assertTrue(plain.count("429") > 0 && partner.refused() > 0,
          what + " without the agent: the partner's 429s reach the app: " + plain);

      // A client's first calls (its classes, its first connections) may leave late on a busy
      // machine and bunch up with the next: warmed up on a path no rule matches, as an app is.
      Started withAgent = app(appName, option, true);
      Burst.of(withAgent.app, client, partner.url("/warm-up"), 5, 10);
      partner.reset();
      long sentBefore = metric(withAgent, "tollgate_outbound_sent_total", "paced");
      Burst paced = Burst.of(withAgent.app, client, partner.url("/paced/o"), 50, 50);
      assertEquals(50, paced.count("200"), what + ": every call answered 200: " + paced);
      assertEquals(0, partner.refused(), what + ": the partner refused none: " + paced);
      assertTrue(partner.mostAcceptedInAnyWindow() <= PARTNER_LIMIT, what + ": the partner saw "
          + partner.mostAcceptedInAnyWindow() + " in one second: " + partner.acceptedAtMillis());
      assertEquals(50, partner.accepted(), what + ": one request per call reached the partner");
      assertEquals(50, metric(withAgent, "tollgate_outbound_sent_total", "paced") - sentBefore,
          what + ": the rule counted each call once");
    }
  }

  @ParameterizedTest(name = "{0} {2}: {1}")
  @CsvSource(delimiter = '|', value = {
    "outbound-jaxrs-jersey   | jaxrs       | ''",
    "outbound-jaxrs-jersey   | jaxrs-async | ''",
    "outbound-jaxrs-resteasy | jaxrs       | ''",
    "outbound-jaxrs-resteasy | jaxrs-async | ''",
    "outbound-jaxrs-cxf      | jaxrs       | ''",
    "outbound-jaxrs-cxf      | jaxrs-async | ''",
    "outbound-jaxrs-cxf      | jaxrs       | " + CXF_ON_URLCONNECTION,
  })
  void onLimitFailSurfacesAsTheClientsProcessingExceptionWrappingTheRefusal(String appName,
      String client, String option) throws Exception {
    String what = appName + " " + option + " " + client;
    Started app = app(appName, option, true);
    try (PartnerStub partner = PartnerStub.start(1000, Duration.ofSeconds(1))) {
      // 2 an hour for all the app's calls: whatever the rows before took, 2 of 4 at least fail
      Burst failed = Burst.of(app.app, client, partner.url("/fails/orders"), 4, 50);
      int refused = failed.count(PROCESSING_EXCEPTION);
      assertEquals(4, failed.count("200") + refused, what + ": " + failed);
      assertTrue(refused >= 2, what + ": " + failed);
      assertTrue(causesOf(failed, PROCESSING_EXCEPTION).contains(REFUSED),
          what + ": the ProcessingException wraps the refusal: " + failed);
      assertEquals(failed.count("200"), partner.accepted(), what + ": failed calls never left");
    }
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(delimiter = '|', value = {
    "outbound-jaxrs-jersey   | ''",
    "outbound-jaxrs-resteasy | ''",
    "outbound-jaxrs-cxf      | ''",
    "outbound-jaxrs-cxf      | " + CXF_ON_URLCONNECTION,
  })
  void attachedToTheRunningAppItsLoadedClientIsPacedToo(String appName, String option)
      throws Exception {
    String what = appName + " " + option + " after attach";
    ForkedApp.Options options = ForkedApp.app(appName);
    if (!option.isEmpty()) {
      options.jvmOption(option);
    }
    try (PartnerStub partner = PartnerStub.start(PARTNER_LIMIT, Duration.ofSeconds(1));
        ForkedApp app = options.start()) {
      Burst.of(app, "jaxrs", partner.url("/paced/warm-up"), 2, 10); // its classes load
      CliIT.Result attached = CliIT.run("attach", Long.toString(app.pid()), "config=" + rules);
      assertEquals(0, attached.exitCode, attached.out + attached.err);
      app.awaitOutput("outbound rules: paced, fails", Duration.ofSeconds(60));
      // the rules are read before the loaded clients are woven again: ready once they are
      app.awaitOutput("[tollgate] ready", Duration.ofSeconds(60));
      // their woven sends run cold at first, and a busy machine may delay a paced call's start
      // until the next one's: warmed up on a path no rule matches, as with -javaagent
      Burst.of(app, "jaxrs", partner.url("/warm-up"), 5, 10);
      partner.reset();
      Burst burst = Burst.of(app, "jaxrs", partner.url("/paced/orders"), 30, 50);
      assertEquals(30, burst.count("200"), what + ": every call answered 200: " + burst);
      assertEquals(0, partner.refused(), what + ": the partner refused none: " + burst);
      assertTrue(partner.mostAcceptedInAnyWindow() <= PARTNER_LIMIT, what + ": the partner saw "
          + partner.mostAcceptedInAnyWindow() + " in one second: " + partner.acceptedAtMillis());
    }
  }

  /** The value of the agent's counter {@code name} for {@code rule}, on its Prometheus endpoint. */
  private static long metric(Started started, String name, String rule) throws Exception {
    HttpResponse<String> metrics = HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + started.metricsPort + "/metrics"))
            .timeout(Duration.ofSeconds(20)).build(),
        HttpResponse.BodyHandlers.ofString());
    Matcher m = Pattern.compile("(?m)^" + name + "\\{rule=\"" + rule + "\"\\} (\\d+)")
        .matcher(metrics.body());
    return m.find() ? Long.parseLong(m.group(1)) : 0;
  }

  /** The classes of the causes of the first {@code exception} of the burst, as the app saw them. */
  private static String causesOf(Burst burst, String exception) {
    Matcher m = Pattern.compile("\"causes\":\\{.*?\"" + Pattern.quote(exception) + "\":\"([^\"]*)\"")
        .matcher(burst.json());
    return m.find() ? m.group(1) : "";
  }
}
