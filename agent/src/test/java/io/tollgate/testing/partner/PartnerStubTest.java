package io.tollgate.testing.partner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The partner the outbound tests call: its limit holds, and it says what it saw. */
class PartnerStubTest {

  private final HttpClient client = HttpClient.newHttpClient();

  @Test
  void acceptsItsLimitInAWindowAndRefusesTheRestWithRetryAfter() throws Exception {
    try (PartnerStub partner = PartnerStub.start(5, Duration.ofHours(1))) {
      int ok = 0;
      HttpResponse<String> last = null;
      for (int i = 0; i < 8; i++) {
        last = get(partner.url("/orders"));
        if (last.statusCode() == 200) {
          ok++;
        }
      }
      assertEquals(5, ok);
      assertEquals(5, partner.accepted());
      assertEquals(3, partner.refused());
      assertEquals(429, last.statusCode());
      assertTrue(Long.parseLong(last.headers().firstValue("Retry-After").orElseThrow()) > 3500);
      assertEquals(5, partner.mostAcceptedInAnyWindow());
    }
  }

  @Test
  void refusesOnRequestWithTheGivenRetryAfter() throws Exception {
    try (PartnerStub partner = PartnerStub.start(100, Duration.ofSeconds(1))) {
      partner.refuseNext(2, 7);
      assertEquals("7", get(partner.url("/a")).headers().firstValue("Retry-After").orElseThrow());
      assertEquals(429, get(partner.url("/a")).statusCode());
      assertEquals(200, get(partner.url("/a")).statusCode());
      assertEquals(2, partner.refused());
      assertEquals(1, partner.accepted());
    }
  }

  private HttpResponse<String> get(String url) throws Exception {
    return client.send(HttpRequest.newBuilder(URI.create(url)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
