package io.tollgate.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tollgate.http.HttpExchange;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code match.hosts} and {@code match.headers} against the request's Host and headers. */
class HostAndHeaderMatchTest {

  /** Only what the matcher reads: headers, by name in any case. */
  private static final class Headers implements HttpExchange {
    private final Map<String, String> headers = new LinkedHashMap<>();

    Headers(String... nameValue) {
      for (int i = 0; i < nameValue.length; i += 2) {
        if (nameValue[i + 1] != null) {
          headers.put(nameValue[i].toLowerCase(Locale.ROOT), nameValue[i + 1]);
        }
      }
    }

    @Override public String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
    @Override public List<String> headerLines(String name) {
      String v = header(name);
      return v == null ? Collections.emptyList() : Collections.singletonList(v);
    }
    @Override public String method() { return "GET"; }
    @Override public String rawPath() { return "/"; }
    @Override public String remoteAddress() { return "127.0.0.1"; }
    @Override public String principalName() { return null; }
    @Override public String parameter(String name) { return null; }
    @Override public String cookie(String name) { return null; }
    @Override public String route() { return null; }
    @Override public void setResponseHeader(String name, String value) {}
    @Override public void writeRefusal(io.tollgate.http.RefusalMessage refusal) {}
    @Override public String responseHeader(String name) { return null; }
  }

  private static RequestMatcher hosts(String... globs) {
    return new RequestMatcher(
        Collections.emptyList(), Collections.emptySet(), Arrays.asList(globs), Collections.emptyMap());
  }

  private static RequestMatcher header(String name, String condition) {
    return new RequestMatcher(
        Collections.emptyList(), Collections.emptySet(), Collections.emptyList(),
        Collections.singletonMap(name, condition));
  }

  @ParameterizedTest(name = "hosts [{0}], Host: {1} -> {2}")
  @CsvSource(nullValues = "NONE", value = {
    // glob              Host header               matches
    "api.example.com,    api.example.com,          true",
    "api.example.com,    API.Example.COM,          true", //  hosts are case-insensitive
    "api.example.com,    api.example.com:8443,     true", //  without the port
    "api.example.com,    api.example.com.,         true", //  the trailing dot names the same host
    "api.example.com,    www.example.com,          false",
    "api.example.com,    api.example.com.evil.io,  false", // whole name, not a prefix
    "*.example.com,      www.example.com,          true",
    "*.example.com,      a.b.example.com:80,       true", //  * spans labels, as in nginx
    "*.example.com,      example.com,              false", // the dot is part of the glob
    "*.example.com,      example.com.evil.io,      false",
    "api-v?.example.com, api-v2.example.com,       true",
    "[::1],              [::1]:8080,               true",
    "api.example.com,    NONE,                     false", // no Host: no host matches
  })
  void hosts(String glob, String host, boolean matches) {
    assertEquals(matches, hosts(glob).matchesHostAndHeaders(new Headers("Host", host)));
  }

  @ParameterizedTest(name = "{0}: {1}, sent {2} -> {3}")
  @CsvSource(nullValues = "NONE", value = {
    // name          condition             sent value                  matches
    "x-api-version,  2*,                   2.1,                        true",
    "x-api-version,  2*,                   1,                          false",
    "x-api-version,  2*,                   NONE,                       false", // a glob needs the header
    "x-api-version,  v2,                   V2,                         false", // values are case-sensitive
    "user-agent,     ELB-HealthChecker/*,  ELB-HealthChecker/2.0,      true",
    "user-agent,     ELB-HealthChecker/*,  curl/8 ELB-HealthChecker/2, false", // anchored at both ends
    "user-agent,     *HealthChecker*,      curl/8 ELB-HealthChecker/2, true",
    "x-internal,     present,              '',                         true",
    "x-internal,     present,              yes,                        true",
    "x-internal,     present,              NONE,                       false",
    "x-internal,     absent,               NONE,                       true",
    "x-internal,     absent,               yes,                        false",
  })
  void headers(String name, String condition, String sent, boolean matches) {
    assertEquals(
        matches, header(name, condition).matchesHostAndHeaders(new Headers(name, sent)));
  }

  @ParameterizedTest(name = "hosts and a header, Host: {0}, X-Tenant: {1} -> {2}")
  @CsvSource(nullValues = "NONE", value = {
    "api.example.com, acme, true",
    "api.example.com, NONE, false", // every condition must hold
    "www.example.com, acme, false",
  })
  void everyConditionMustHold(String host, String tenant, boolean matches) {
    RequestMatcher both =
        new RequestMatcher(
            Collections.emptyList(), Collections.emptySet(),
            Collections.singletonList("api.example.com"), Collections.singletonMap("x-tenant", "present"));
    assertEquals(matches, both.matchesHostAndHeaders(new Headers("Host", host, "X-Tenant", tenant)));
  }

  @ParameterizedTest(name = "no conditions, Host: {0} -> true")
  @CsvSource(nullValues = "NONE", value = {"api.example.com", "NONE"})
  void aRuleWithoutHostsOrHeadersMatchesAsBefore(String host) {
    RequestMatcher none = new RequestMatcher(Collections.singletonList("/**"), Collections.emptySet());
    assertEquals(true, none.matchesHostAndHeaders(new Headers("Host", host)));
  }
}
