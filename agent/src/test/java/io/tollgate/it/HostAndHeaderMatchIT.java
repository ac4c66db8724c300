package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code match.hosts}, {@code match.headers} and {@code skip} over real HTTP on a plain servlet,
 * Spring MVC and Jersey on Grizzly (no servlet API). Requests go over a plain socket because Java's
 * HttpClient will not send a {@code Host} of our choosing. Periods are an hour, so nothing refills
 * during the test.
 */
class HostAndHeaderMatchIT {

  private static final int TIMEOUT_MILLIS = 20_000;

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"servlet-jakarta", "spring-boot3", "jaxrs-jakarta"})
  void hostsHeadersAndSkipDecideWhatARuleCounts(String appName) throws Exception {
    Path rules =
        RulesFiles.write(
            dir,
            "rules.yaml",
            "rules:",
            "  - name: api-host",
            "    match: { path: /hello, hosts: [api.example.com] }",
            "    key: global",
            "    limit: 2",
            "    period: 1h",
            "  - name: v2-clients",
            "    match:",
            "      path: /api/search",
            "      headers: { X-Api-Version: \"2*\" }",
            "    key: global",
            "    limit: 1",
            "    period: 1h",
            "  - name: everything-but-health-checks",
            "    match: { path: /health }",
            "    skip: { headers: { User-Agent: \"ELB-HealthChecker/*\" } }",
            "    key: global",
            "    limit: 1",
            "    period: 1h");
    try (ForkedApp app = ForkedApp.app(appName).withAgent("config=" + rules).start()) {
      // a rule on one host: the other host's requests are not counted, in any number
      for (int i = 0; i < 4; i++) {
        Answer other = send(app, "GET", "/hello", "www.example.com", Map.of());
        assertEquals(200, other.status, "www.example.com #" + (i + 1));
        assertEquals(null, other.header("Tollgate-Rule"));
      }
      assertEquals(200, send(app, "GET", "/hello", "API.Example.com:" + app.port(), Map.of()).status,
          "the host matches in any case, with its port");
      assertEquals(200, send(app, "GET", "/hello", "api.example.com", Map.of()).status);
      Answer refused = send(app, "GET", "/hello", "api.example.com", Map.of());
      assertEquals(429, refused.status, "the third request to api.example.com");
      assertEquals("api-host", refused.header("Tollgate-Rule"));
      assertEquals(200, send(app, "GET", "/hello", "www.example.com", Map.of()).status,
          "and www.example.com still passes");

      // a rule on a header: only requests with a matching value count
      assertEquals(200, send(app, "GET", "/api/search", "localhost", Map.of("X-Api-Version", "1")).status);
      assertEquals(200, send(app, "GET", "/api/search", "localhost", Map.of()).status);
      assertEquals(200, send(app, "GET", "/api/search", "localhost", Map.of("X-Api-Version", "2.1")).status);
      Answer v2 = send(app, "GET", "/api/search", "localhost", Map.of("x-api-version", "2.0"));
      assertEquals(429, v2.status, "the second v2 request; the header's name in any case");
      assertEquals("v2-clients", v2.header("Tollgate-Rule"));
      assertEquals(200, send(app, "GET", "/api/search", "localhost", Map.of("X-Api-Version", "1")).status);

      // skip: the load balancer's health checks are not counted, everyone else's are
      Map<String, String> elb = Map.of("User-Agent", "ELB-HealthChecker/2.0");
      for (int i = 0; i < 3; i++) {
        Answer check = send(app, "GET", "/health", "localhost", elb);
        assertEquals(200, check.status, "health check #" + (i + 1));
        assertEquals(null, check.header("RateLimit-Policy"), "a skipped request gets no quota headers");
      }
      Map<String, String> browser = Map.of("User-Agent", "Mozilla/5.0");
      assertEquals(200, send(app, "GET", "/health", "localhost", browser).status);
      assertEquals(429, send(app, "GET", "/health", "localhost", browser).status,
          "the second request that is not a health check");
      assertEquals(200, send(app, "GET", "/health", "localhost", elb).status,
          "a health check still passes");
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  /** A status and headers (names lower-case). */
  private static final class Answer {
    final int status;
    final Map<String, String> headers;

    Answer(int status, Map<String, String> headers) {
      this.status = status;
      this.headers = headers;
    }

    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  private static Answer send(
      ForkedApp app, String method, String path, String host, Map<String, String> headers)
      throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", app.port()), TIMEOUT_MILLIS);
      socket.setSoTimeout(TIMEOUT_MILLIS);
      StringBuilder request =
          new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: " + host + "\r\n");
      for (Map.Entry<String, String> h : headers.entrySet()) {
        request.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n");
      }
      request.append("Connection: close\r\n\r\n");
      OutputStream out = socket.getOutputStream();
      out.write(request.toString().getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String raw = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
      String[] head = raw.substring(0, Math.max(0, raw.indexOf("\r\n\r\n"))).split("\r\n");
      if (head.length == 0 || !head[0].startsWith("HTTP/1.1 ")) {
        throw new IOException("not an HTTP response: " + raw);
      }
      Map<String, String> answerHeaders = new LinkedHashMap<>();
      for (int i = 1; i < head.length; i++) {
        int colon = head[i].indexOf(':');
        answerHeaders.merge(
            head[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
            head[i].substring(colon + 1).trim(),
            (a, b) -> a + ", " + b);
      }
      return new Answer(Integer.parseInt(head[0].split(" ", 3)[1]), answerHeaders);
    }
  }
}
