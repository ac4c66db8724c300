package io.tollgate.instrumentation.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tollgate.instrumentation.outbound.apache4.Apache4Requests;
import io.tollgate.instrumentation.outbound.apache5.Apache5Requests;
import io.tollgate.instrumentation.outbound.okhttp.OkHttpCallsReader;
import java.net.URI;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import org.apache.http.HttpVersion;
import org.apache.http.client.methods.HttpRequestBase;
import org.apache.http.client.utils.URIUtils;
import org.apache.http.message.BasicHttpRequest;
import org.apache.http.message.BasicHttpResponse;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.routing.RoutingSupport;
import org.apache.hc.core5.http.message.BasicClassicHttpRequest;
import org.apache.hc.core5.http.message.BasicClassicHttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each client module reads the call from the client's own request objects, as its woven send gets
 * them (the target the client determined, and the app's request), into what outbound rules match:
 * {@code METHOD host:port/path}, and the headers the app set; and the partner's answer from the
 * client's own response.
 */
class ClientAdaptersTest {

  @ParameterizedTest(name = "Apache HttpClient 4: {0} {1}")
  @CsvSource(delimiter = '|', value = {
    "GET    | http://127.0.0.1:9000/orders?id=1   | GET 127.0.0.1:9000/orders",
    "post   | https://Partner.Example/v1/pay       | POST partner.example:443/v1/pay",
    "DELETE | http://partner.example              | DELETE partner.example:80/",
    "PUT    | http://[::1]:8080/a%20b?x=y#top      | PUT ::1:8080/a%20b",
  })
  void apache4(String method, String url, String expected) {
    HttpRequestBase request = apache4Request(method, url);
    request.setHeader("X-Tenant", "acme");
    // as CloseableHttpClient.execute(HttpUriRequest) passes it: the target from the URI
    ClientCall call = new Apache4Requests().callOf(URIUtils.extractHost(request.getURI()), request);
    assertEquals(expected, call.toString());
    assertEquals("acme", call.header("X-Tenant"));
    assertEquals("acme", call.header("x-tenant"), "header names ignore case");
    assertNull(call.header("X-Other"));
  }

  @Test
  void apache4WithoutTargetReadsTheAbsoluteRequestLine() {
    BasicHttpRequest request = new BasicHttpRequest("GET", "http://partner.example:81/a?b");
    assertEquals("GET partner.example:81/a",
        new Apache4Requests().callOf(null, request).toString());
    assertNull(new Apache4Requests().callOf(null, new BasicHttpRequest("GET", "/relative")),
        "no destination: the client fails such a call itself, undecided");
  }

  @Test
  void apache4Response() {
    Apache4Requests client = new Apache4Requests();
    ClientCall call = client.callOf(null, new BasicHttpRequest("GET", "http://partner/x"));
    BasicHttpResponse response = new BasicHttpResponse(HttpVersion.HTTP_1_1, 429, "Too Many");
    response.setHeader("Retry-After", "7");
    assertEquals(429, client.status(call, response));
    assertEquals("7", client.responseHeader(call, response, "retry-after"));
    assertNull(client.responseHeader(call, response, "RateLimit"));
  }

  @ParameterizedTest(name = "Apache HttpClient 5: {0} {1}")
  @CsvSource(delimiter = '|', value = {
    "GET    | http://127.0.0.1:9000/orders?id=1   | GET 127.0.0.1:9000/orders",
    "post   | https://Partner.Example/v1/pay       | POST partner.example:443/v1/pay",
    "DELETE | http://partner.example              | DELETE partner.example:80/",
    "PUT    | http://[::1]:8080/a%20b?x=y          | PUT ::1:8080/a%20b",
  })
  void apache5(String method, String url, String expected) throws Exception {
    HttpUriRequestBase request = new HttpUriRequestBase(method, URI.create(url));
    request.setHeader("X-Tenant", "acme");
    // as CloseableHttpClient.execute(ClassicHttpRequest) passes it: the target it determined
    ClientCall call =
        new Apache5Requests().callOf(RoutingSupport.determineHost(request), request);
    assertEquals(expected, call.toString());
    assertEquals("acme", call.header("x-tenant"));
    assertNull(call.header("X-Other"));
    assertEquals(expected, new Apache5Requests().callOf(null, request).toString(),
        "without a target: the request's own scheme and authority");
  }

  @Test
  void apache5Response() {
    Apache5Requests client = new Apache5Requests();
    ClientCall call =
        client.callOf(null, new BasicClassicHttpRequest("GET", URI.create("http://partner/x")));
    BasicClassicHttpResponse response = new BasicClassicHttpResponse(503);
    response.setHeader("Retry-After", "30");
    assertEquals(503, client.status(call, response));
    assertEquals("30", client.responseHeader(call, response, "Retry-After"));
  }

  @ParameterizedTest(name = "OkHttp: {0} {1}")
  @CsvSource(delimiter = '|', value = {
    "GET    | http://127.0.0.1:9000/orders?id=1   | GET 127.0.0.1:9000/orders",
    "POST   | https://Partner.Example/v1/pay       | POST partner.example:443/v1/pay",
    "DELETE | http://partner.example              | DELETE partner.example:80/",
    "PUT    | http://[::1]:8080/a%20b?x=y          | PUT ::1:8080/a%20b",
  })
  void okHttp(String method, String url, String expected) {
    Request request = new Request.Builder().url(url)
        .method(method, method.equals("GET") || method.equals("DELETE")
            ? null
            : okhttp3.RequestBody.create(new byte[0], (okhttp3.MediaType) null))
        .header("X-Tenant", "acme")
        .build();
    // the woven send passes the RealCall itself
    ClientCall call = new OkHttpCallsReader().callOf(new OkHttpClient().newCall(request), null);
    assertEquals(expected, call.toString());
    assertEquals("acme", call.header("x-tenant"));
    assertNull(call.header("X-Other"));
  }

  @Test
  void okHttpResponse() {
    OkHttpCallsReader client = new OkHttpCallsReader();
    Request request = new Request.Builder().url("http://partner/x").build();
    ClientCall call = client.callOf(new OkHttpClient().newCall(request), null);
    Response response = new Response.Builder().request(request).protocol(Protocol.HTTP_1_1)
        .code(429).message("Too Many").header("RateLimit", "\"partner\";r=0;t=3").build();
    assertEquals(429, client.status(call, response));
    assertEquals("\"partner\";r=0;t=3", client.responseHeader(call, response, "ratelimit"));
    assertNull(client.responseHeader(call, response, "Retry-After"));
  }

  private static HttpRequestBase apache4Request(String method, String url) {
    HttpRequestBase request = new HttpRequestBase() {
      @Override
      public String getMethod() {
        return method;
      }
    };
    request.setURI(URI.create(url));
    return request;
  }
}
