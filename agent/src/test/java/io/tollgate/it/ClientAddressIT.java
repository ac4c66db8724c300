package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who the client is, over real HTTP: the address behind trusted proxies is the key, what a client
 * writes to the left of the trusted part changes nothing, and IPv6 clients share their /64.
 */
class ClientAddressIT {

  private static final String APP = "servlet-jakarta";

  @TempDir Path dir;

  private Path rules(String trustedProxies) throws Exception {
    return RulesFiles.write(
        dir,
        "rules.yaml",
        "client-ip:",
        "  trusted-proxies: " + trustedProxies,
        "rules:",
        "  - name: hello-per-ip",
        "    match:",
        "      path: /hello",
        "    key: ip",
        "    limit: 5",
        "    period: 1m");
  }

  @Test
  void oneTrustedHopKeysTheAddressTheProxySawWhateverTheClientWroteBeforeIt() throws Exception {
    try (ForkedApp app = ForkedApp.app(APP).withAgent("config=" + rules("1")).start()) {
      int allowed = 0;
      for (int i = 1; i <= 12; i++) {
        int status = app.send("GET", "/hello",
            Map.of("X-Forwarded-For", "203.0.113." + i + ", 198.51.100.7")).statusCode();
        allowed += status == 200 ? 1 : 0;
      }
      assertEquals(5, allowed, "12 requests from 198.51.100.7, spoofed prefixes notwithstanding");

      assertEquals(200, app.send("GET", "/hello",
          Map.of("X-Forwarded-For", "203.0.113.1, 198.51.100.8")).statusCode(),
          "another client behind the same proxy has its own budget");
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  @Test
  void withNoTrustedProxyARotatingForwardedForChangesNothingAndTheLogSaysWhy() throws Exception {
    try (ForkedApp app = ForkedApp.app(APP).withAgent("config=" + rules("0")).start()) {
      int allowed = 0;
      for (int i = 1; i <= 12; i++) {
        int status = app.send("GET", "/hello",
            Map.of("X-Forwarded-For", "203.0.113." + i)).statusCode();
        allowed += status == 200 ? 1 : 0;
      }
      assertEquals(5, allowed, "the key is the socket peer; the header is not trusted");
      String warning = app.awaitOutput("but client-ip.trusted-proxies is 0", Duration.ofSeconds(5));
      assertTrue(warning.startsWith("[tollgate] WARN"), warning);
    }
  }

  @Test
  void addressesWithinOneIpv6Slash64ShareABucket() throws Exception {
    try (ForkedApp app = ForkedApp.app(APP).withAgent("config=" + rules("1")).start()) {
      int allowed = 0;
      for (int i = 1; i <= 8; i++) {
        String client = "2001:db8:1:2::" + Integer.toHexString(i * 4099);
        int status = app.send("GET", "/hello", Map.of("X-Forwarded-For", client)).statusCode();
        allowed += status == 200 ? 1 : 0;
      }
      assertEquals(5, allowed, "one /64, one budget");
      assertEquals(200, app.send("GET", "/hello",
          Map.of("X-Forwarded-For", "2001:db8:1:3::1")).statusCode(), "the next /64 is another client");
      assertEquals(200, app.send("GET", "/hello",
          Map.of("Forwarded", "for=\"[2001:db8:1:4::1]:4711\"")).statusCode(),
          "RFC 7239 Forwarded with a bracketed IPv6 address and port");
    }
  }

  @Test
  void clientsBehindOneNat64GatewayHaveABudgetEachTheSameAsOverIpv4() throws Exception {
    try (ForkedApp app = ForkedApp.app(APP).withAgent("config=" + rules("1")).start()) {
      for (int i = 1; i <= 5; i++) {
        assertEquals(200, app.send("GET", "/hello",
            Map.of("X-Forwarded-For", "64:ff9b::203.0.113.7")).statusCode(), "request " + i);
      }
      assertEquals(429, app.send("GET", "/hello",
          Map.of("X-Forwarded-For", "64:ff9b::cb00:7107")).statusCode(),
          "the same client, written in hex");
      assertEquals(429, app.send("GET", "/hello",
          Map.of("X-Forwarded-For", "203.0.113.7")).statusCode(),
          "and over IPv4: one client, one budget");
      assertEquals(200, app.send("GET", "/hello",
          Map.of("X-Forwarded-For", "64:ff9b::203.0.113.8")).statusCode(),
          "another NAT64 user of the same /64 has a budget of its own");
      for (int i = 1; i <= 5; i++) {
        assertEquals(200, app.send("GET", "/hello",
            Map.of("X-Forwarded-For", "2001:0:4136:e378:8000:63bf:3fff:fdd2")).statusCode(),
            "Teredo request " + i);
      }
      assertEquals(429, app.send("GET", "/hello",
          Map.of("X-Forwarded-For", "192.0.2.45")).statusCode(),
          "a Teredo client is keyed by its public IPv4 address, 192.0.2.45");
      ServletAppsIT.assertAgentLogClean(app);
    }
  }
}
