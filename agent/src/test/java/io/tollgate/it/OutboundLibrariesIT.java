package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.testing.partner.PartnerStub;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The apps of {@code test-apps/outbound-libraries} (and {@code outbound-okhttp5}, the same with
 * OkHttp 5) burst calls at a partner on loopback with each HTTP client library, with and without
 * the agent and no outbound rule: the app works unchanged (every call reaches the partner, the
 * same statuses, no exception), and the agent has woven the client's send where it has a module (a
 * woven send the JVM rejected would fail every call).
 */
class OutboundLibrariesIT {

  private static final int CALLS = 20;

  private static PartnerStub partner;
  /** The apps started, by name and "+agent", kept for the rows that follow. */
  private static final Map<String, ForkedApp> APPS = new LinkedHashMap<>();

  @BeforeAll
  static void startThePartner() throws Exception {
    partner = PartnerStub.start(10_000, Duration.ofSeconds(1));
  }

  @AfterAll
  static void stop() throws Exception {
    for (ForkedApp app : APPS.values()) {
      app.close();
    }
    partner.close();
  }

  private static ForkedApp app(String name, boolean withAgent) throws Exception {
    String key = name + (withAgent ? "+agent" : "");
    ForkedApp app = APPS.get(key);
    if (app == null) {
      app = withAgent
          ? ForkedApp.app(name).withAgent(null).start()
          : ForkedApp.app(name).start();
      APPS.put(key, app);
    }
    return app;
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(delimiter = '|', value = {
    // app              | client        | its send, woven by the agent
    "outbound-libraries | apache4       | org.apache.http.impl.client.InternalHttpClient",
    "outbound-libraries | apache5       | org.apache.hc.client5.http.impl.classic.InternalHttpClient",
    "outbound-libraries | apache5-async | org.apache.hc.client5.http.impl.async."
        + "InternalAbstractHttpAsyncClient",
    "outbound-libraries | okhttp        | okhttp3.internal.connection.RealCall",
    "outbound-libraries | okhttp-async  | okhttp3.internal.connection.RealCall",
    "outbound-okhttp5   | okhttp        | okhttp3.internal.connection.RealCall",
    "outbound-okhttp5   | okhttp-async  | okhttp3.internal.connection.RealCall",
    "outbound-okhttp3   | okhttp        | okhttp3.RealCall",
    "outbound-okhttp3   | okhttp-async  | okhttp3.RealCall",
  })
  void everyCallReachesThePartnerWithOrWithoutTheAgent(String appName, String client, String send)
      throws Exception {
    String expected = "\"statuses\":{\"200\":" + CALLS + "},\"exceptions\":{}";
    ForkedApp withAgent = app(appName, true);
    for (ForkedApp app : new ForkedApp[] {app(appName, false), withAgent}) {
      partner.reset();
      String outcome = burst(app, client, "/orders?client=" + client);
      assertTrue(outcome.contains(expected), app.name() + ": " + outcome);
      assertEquals(CALLS, partner.accepted(), app.name() + ": the partner's count");
    }
    if (send.startsWith("none")) {
      return;
    }
    assertTrue(withAgent.agentLog().stream().anyMatch(line -> line.contains("instrumented " + send)),
        "the agent wove " + send + ": " + withAgent.agentLog());
  }

  /**
   * Attached to the app while it runs, its clients' classes loaded and in use: the agent weaves
   * their sends as it retransforms them, and every call still reaches the partner.
   */
  @Test
  void attachedToTheRunningAppItWeavesTheLoadedSends(@TempDir Path dir) throws Exception {
    Map<String, String> sends = Map.of(
        "apache4", "org.apache.http.impl.client.InternalHttpClient",
        "apache5", "org.apache.hc.client5.http.impl.classic.InternalHttpClient",
        "okhttp", "okhttp3.internal.connection.RealCall");
    String expected = "\"statuses\":{\"200\":" + CALLS + "},\"exceptions\":{}";
    try (ForkedApp app = ForkedApp.app("outbound-libraries").start()) {
      for (String client : sends.keySet()) {
        assertTrue(burst(app, client, "/before").contains(expected));
      }
      CliIT.Result attached = CliIT.run("attach", Long.toString(app.pid()),
          "config=" + RulesFiles.helloPerIp(dir, 3));
      assertEquals(0, attached.exitCode, attached.out + attached.err);
      for (String send : sends.values()) {
        ItSupport.awaitCount(app, "instrumented " + send + " (already loaded)", 1,
            ItSupport.RELOAD_TIMEOUT);
      }
      for (String client : sends.keySet()) {
        partner.reset();
        String outcome = burst(app, client, "/after");
        assertTrue(outcome.contains(expected), client + ": " + outcome);
        assertEquals(CALLS, partner.accepted(), client + ": the partner's count");
      }
    }
  }

  /** {@code CALLS} calls at 40 a second with {@code client}: the app's JSON account of them. */
  private static String burst(ForkedApp app, String client, String path) throws Exception {
    HttpResponse<String> response = app.get("/burst?client=" + client + "&calls=" + CALLS
        + "&per-second=40&url=" + URLEncoder.encode(partner.url(path), StandardCharsets.UTF_8));
    assertEquals(200, response.statusCode(), response.body());
    return response.body();
  }
}
