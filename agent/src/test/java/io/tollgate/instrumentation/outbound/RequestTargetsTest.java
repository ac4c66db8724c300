package io.tollgate.instrumentation.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Request targets as clients keep them, read into what outbound rules match. */
class RequestTargetsTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', nullValues = "null", value = {
    // target                              | scheme | host          | port | path and query
    "http://partner.example/orders?id=1     | http   | partner.example | -1 | /orders?id=1",
    "https://Partner.Example:8443/a/b       | https  | Partner.Example | 8443 | /a/b",
    "http://user:secret@partner.example:81  | http   | partner.example | 81   | ''",
    "http://[::1]:9000/v1                   | http   | [::1]           | 9000 | /v1",
    "http://[::1]/v1                        | http   | [::1]           | -1   | /v1",
    "http://partner.example?q=1             | http   | partner.example | -1   | ?q=1",
    "/orders?id=1                           | null   | null            | -1   | /orders?id=1",
    "/a b^c                                 | null   | null            | -1   | /a b^c",
    "*                                      | null   | null            | -1   | *",
  })
  void readsWhatRulesMatch(String target, String scheme, String host, int port, String path) {
    assertEquals(scheme, RequestTargets.scheme(target), "scheme");
    assertEquals(host, RequestTargets.host(target), "host");
    assertEquals(port, RequestTargets.port(target), "port");
    assertEquals(path, RequestTargets.pathAndQuery(target), "path and query");
  }

  @ParameterizedTest(name = "{0} {1}:{2}{3} is {4}")
  @CsvSource(delimiter = '|', nullValues = "null", value = {
    // method | scheme | host            | port | path           | the call
    "get      | http   | Partner.Example | -1   | /orders?id=1   | GET partner.example:80/orders",
    "POST     | https  | partner.example | -1   | ''             | POST partner.example:443/",
    "PUT      | HTTPS  | [::1]           | 8443 | /a#frag        | PUT ::1:8443/a",
    "DELETE   | http   | 127.0.0.1       | 9000 | ?only=query    | DELETE 127.0.0.1:9000/",
    "null     | http   | null            | 80   | null           | GET :80/",
  })
  void callsAreNormalizedAsOutboundRulesExpect(String method, String scheme, String host,
      int port, String path, String expected) {
    ClientCall call = new ClientCall(null, null, null, method, scheme, host, port, path);
    assertEquals(expected, call.toString());
  }

}
