package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.testing.partner.PartnerStub;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The app of {@code test-apps/outbound-libraries} bursts calls at a partner on loopback with each
 * HTTP client library, with and without the agent and no outbound rule: the app works unchanged
 * (every call reaches the partner, the same statuses, no exception), and the agent has woven the
 * client's send where it has a module (a woven send the JVM rejected would fail every call).
 */
class OutboundLibrariesIT {

  private static final int CALLS = 20;

  private static PartnerStub partner;
  private static ForkedApp plain;
  private static ForkedApp withAgent;

  @BeforeAll
  static void startThePartnerAndTheApps() throws Exception {
    partner = PartnerStub.start(10_000, Duration.ofSeconds(1));
    plain = ForkedApp.app("outbound-libraries").start();
    withAgent = ForkedApp.app("outbound-libraries").withAgent(null).start();
  }

  @AfterAll
  static void stop() throws Exception {
    if (withAgent != null) {
      withAgent.close();
    }
    if (plain != null) {
      plain.close();
    }
    partner.close();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
    // client      | its send, woven by the agent
    "apache4       | org.apache.http.impl.client.InternalHttpClient",
    "apache5       | org.apache.hc.client5.http.impl.classic.InternalHttpClient",
    "apache5-async | none yet (issue 31)",
    "okhttp        | okhttp3.internal.connection.RealCall",
    "okhttp-async  | okhttp3.internal.connection.RealCall",
  })
  void everyCallReachesThePartnerWithOrWithoutTheAgent(String client, String send)
      throws Exception {
    String expected = "\"statuses\":{\"200\":" + CALLS + "},\"exceptions\":{}";
    for (ForkedApp app : new ForkedApp[] {plain, withAgent}) {
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

  /** {@code CALLS} calls at 40 a second with {@code client}: the app's JSON account of them. */
  private static String burst(ForkedApp app, String client, String path) throws Exception {
    HttpResponse<String> response = app.get("/burst?client=" + client + "&calls=" + CALLS
        + "&per-second=40&url=" + URLEncoder.encode(partner.url(path), StandardCharsets.UTF_8));
    assertEquals(200, response.statusCode(), response.body());
    return response.body();
  }
}
