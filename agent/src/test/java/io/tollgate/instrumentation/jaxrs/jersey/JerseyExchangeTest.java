package io.tollgate.instrumentation.jaxrs.jersey;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.security.Principal;
import java.util.Arrays;
import java.util.List;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.ws.rs.core.Response;
import javax.ws.rs.core.SecurityContext;
import org.glassfish.jersey.internal.MapPropertiesDelegate;
import org.glassfish.jersey.server.ContainerRequest;
import org.glassfish.jersey.server.ContainerResponse;
import org.glassfish.jersey.server.internal.process.RequestProcessingContext;
import org.glassfish.jersey.server.internal.routing.UriRoutingContext;
import org.glassfish.jersey.uri.UriTemplate;
import org.junit.jupiter.api.Test;

/**
 * A request as the engine sees it through {@link JerseyApi}'s generated calls, on Jersey 2's own
 * request and response objects ({@code javax.ws.rs}); Jersey 3 and later ({@code jakarta.ws.rs})
 * run with the agent in the integration tests.
 */
class JerseyExchangeTest {

  private static final Principal ALICE = () -> "alice";

  private final ContainerRequest request =
      new ContainerRequest(
          URI.create("http://shop.example/api/"),
          URI.create("http://shop.example/api/orders/42%2F7?page=3&page=4"),
          "GET",
          signedIn(ALICE),
          new MapPropertiesDelegate(),
          null);
  private final RequestProcessingContext processingContext =
      new RequestProcessingContext(null, request, null, null, null);
  private final JerseyApi jersey = JerseyApi.of(processingContext);
  private final JerseyExchange exchange =
      new JerseyExchange(jersey.calls, jersey.calls.request(processingContext), "10.0.0.7");

  @Test
  void findsTheNamespaceJerseyWasBuiltAgainst() {
    assertEquals("javax.ws.rs", jersey.namespace);
  }

  @Test
  void oneJerseyGetsOneApi() {
    assertSame(jersey, JerseyApi.of(new RequestProcessingContext(null, request, null, null, null)));
  }

  @Test
  void readsTheRequestLineUndecoded() {
    assertEquals("GET", exchange.method());
    assertEquals("/api/orders/42%2F7", exchange.rawPath());
  }

  @Test
  void theClientAddressIsTheContainersNotJerseys() {
    assertEquals("10.0.0.7", exchange.remoteAddress());
  }

  @Test
  void readsHeadersFirstValueAndAllLines() {
    request.header("X-Api-Key", "k-1");
    request.header("X-Api-Key", "k-2");

    assertEquals("k-1", exchange.header("x-api-key"));
    assertEquals(Arrays.asList("k-1", "k-2"), exchange.headerLines("X-Api-Key"));
    assertNull(exchange.header("X-Tenant"));
    assertEquals(List.of(), exchange.headerLines("X-Tenant"));
  }

  @Test
  void readsThePrincipalFromTheSecurityContext() {
    assertEquals("alice", exchange.principalName());
  }

  @Test
  void anAnonymousRequestHasNoPrincipal() {
    ContainerRequest anonymous =
        new ContainerRequest(
            URI.create("http://shop.example/"), URI.create("http://shop.example/hello"), "GET",
            signedIn(null), new MapPropertiesDelegate(), null);

    assertNull(new JerseyExchange(jersey.calls, anonymous, "10.0.0.7").principalName());
  }

  @Test
  void readsTheFirstQueryParameter() {
    assertEquals("3", exchange.parameter("page"));
    assertNull(exchange.parameter("size"));
  }

  @Test
  void readsCookies() {
    request.header("Cookie", "session=s-42; theme=dark");

    assertEquals("s-42", exchange.cookie("session"));
    assertEquals("dark", exchange.cookie("theme"));
    assertNull(exchange.cookie("tenant"));
  }

  @Test
  void theRouteIsTheBasePathAndTheMatchedTemplatesOutermostFirst() {
    // what Jersey's router records for GET /api/orders/42 matched by @Path("/orders") @Path("{id}")
    UriRoutingContext routing = (UriRoutingContext) request.getUriInfo();
    routing.pushMatchResult(matched("/orders(/.*)?", "/orders/42"));
    routing.pushMatchResult(matched("/([^/]+)", "/42"));
    routing.pushTemplates(new UriTemplate("/orders"), new UriTemplate("{id}"));

    assertEquals("/api/orders/{id}", exchange.route());
  }

  @Test
  void aRequestNotYetRoutedHasNoRoute() {
    assertNull(exchange.route());
  }

  @Test
  void setsAndReadsRequestProperties() {
    assertNull(exchange.property("io.tollgate.route-decided"));

    exchange.setProperty("io.tollgate.route-decided", Boolean.TRUE);

    assertEquals(Boolean.TRUE, exchange.property("io.tollgate.route-decided"));
    assertEquals(Boolean.TRUE, request.getProperty("io.tollgate.route-decided"));
  }

  @Test
  void quotaHeadersReplaceTheResponsesOwn() {
    ContainerResponse response =
        new ContainerResponse(request, Response.ok("hi").header("RateLimit", "stale").build());

    JerseyExchange alone =
        new JerseyExchange(jersey, jersey.calls.request(processingContext), null, "10.0.0.7");
    alone.setResponseHeader("RateLimit-Policy", "\"hello\";q=5;w=60");
    alone.setResponseHeader("RateLimit", "\"hello\";r=4;t=60");

    alone.setHeadersOn(response);

    assertEquals(List.of("\"hello\";q=5;w=60"), response.getHeaders().get("RateLimit-Policy"));
    assertEquals(List.of("\"hello\";r=4;t=60"), response.getHeaders().get("RateLimit"));
    assertEquals("hi", response.getEntity());
  }

  @Test
  void buildsARefusalAsJerseysOwnResponse() throws ReflectiveOperationException {
    byte[] body = "{\"status\":429}".getBytes(java.nio.charset.StandardCharsets.UTF_8);

    ContainerResponse refusal =
        (ContainerResponse)
            jersey.refusals().containerResponse(
                request, 429, new String[] {"Retry-After", "12", "RateLimit", "\"login\";r=0;t=12"},
                "application/problem+json", body);

    assertEquals(429, refusal.getStatus());
    assertEquals("12", refusal.getHeaderString("Retry-After"));
    assertEquals("\"login\";r=0;t=12", refusal.getHeaderString("RateLimit"));
    assertEquals("application/problem+json", refusal.getMediaType().toString());
    assertArrayEquals(body, (byte[]) refusal.getEntity());
    assertSame(request, refusal.getRequestContext());
  }

  private static MatchResult matched(String regex, String path) {
    Matcher matcher = Pattern.compile(regex).matcher(path);
    assertTrue(matcher.matches(), regex);
    return matcher.toMatchResult();
  }

  private static SecurityContext signedIn(Principal principal) {
    return new SecurityContext() {
      @Override
      public Principal getUserPrincipal() {
        return principal;
      }

      @Override
      public boolean isUserInRole(String role) {
        return false;
      }

      @Override
      public boolean isSecure() {
        return false;
      }

      @Override
      public String getAuthenticationScheme() {
        return null;
      }
    };
  }
}
