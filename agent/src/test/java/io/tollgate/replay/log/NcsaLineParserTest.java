package io.tollgate.replay.log;

import static io.tollgate.replay.log.ExpectedRequest.refused;
import static io.tollgate.replay.log.ExpectedRequest.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class NcsaLineParserTest {

  static Stream<ExpectedRequest> lines() {
    return Stream.of(
        // Apache common (the example of the Apache docs)
        row("127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] \"GET /apache_pb.gif HTTP/1.0\" 200 2326",
            "2000-10-10T20:55:36Z", "127.0.0.1", "GET", "/apache_pb.gif", null, 200, "frank"),
        // Apache / nginx combined
        row("127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] \"GET /apache_pb.gif HTTP/1.0\" 200 2326"
                + " \"http://www.example.com/start.html\" \"Mozilla/4.08 [en] (Win98; I ;Nav)\"",
            "2000-10-10T20:55:36Z", "127.0.0.1", "GET", "/apache_pb.gif", null, 200, "frank")
            .headers("referer", "http://www.example.com/start.html",
                "user-agent", "Mozilla/4.08 [en] (Win98; I ;Nav)"),
        // nginx combined, no user, query string
        row("203.0.113.7 - - [01/Dec/2026:23:59:59 +0000] \"POST /login?next=%2Fhome&x=1 HTTP/1.1\""
                + " 401 17 \"-\" \"curl/8.5.0\"",
            "2026-12-01T23:59:59Z", "203.0.113.7", "POST", "/login", "next=%2Fhome&x=1", 401, null)
            .headers("user-agent", "curl/8.5.0"),
        // Tomcat AccessLogValve common (also its default pattern %h %l %u %t "%r" %s %b): - bytes
        row("10.1.2.3 - - [05/Mar/2024:08:00:00 +0100] \"GET /api/orders/42 HTTP/1.1\" 304 -",
            "2024-03-05T07:00:00Z", "10.1.2.3", "GET", "/api/orders/42", null, 304, null),
        // Tomcat combined
        row("10.1.2.3 - admin [05/Mar/2024:08:00:00 +0100] \"DELETE /api/orders/42 HTTP/1.1\" 204 -"
                + " \"https://shop.example/orders\" \"Mozilla/5.0 (X11; Linux x86_64)\"",
            "2024-03-05T07:00:00Z", "10.1.2.3", "DELETE", "/api/orders/42", null, 204, "admin")
            .headers("referer", "https://shop.example/orders",
                "user-agent", "Mozilla/5.0 (X11; Linux x86_64)"),
        // Tomcat pattern with %D after the combined fields: unquoted extras are skipped
        row("10.1.2.3 - - [05/Mar/2024:08:00:00 +0100] \"GET /health HTTP/1.1\" 200 2 \"-\" \"kube-probe/1.29\" 3",
            "2024-03-05T07:00:00Z", "10.1.2.3", "GET", "/health", null, 200, null)
            .headers("user-agent", "kube-probe/1.29"),
        // Tomcat %{...SSS}t: milliseconds
        row("10.1.2.3 - - [05/Mar/2024:08:00:00.250 +0100] \"GET /health HTTP/1.1\" 200 2",
            "2024-03-05T07:00:00.250Z", "10.1.2.3", "GET", "/health", null, 200, null),
        // nginx combined + "$http_x_forwarded_for"
        row("10.0.0.5 - - [17/May/2025:10:11:12 +0200] \"GET /api/search?q=shoes HTTP/2.0\" 200 512"
                + " \"-\" \"Mozilla/5.0\" \"198.51.100.23, 10.0.0.9\"",
            "2025-05-17T08:11:12Z", "10.0.0.5", "GET", "/api/search", "q=shoes", 200, null)
            .headers("user-agent", "Mozilla/5.0", "x-forwarded-for", "198.51.100.23, 10.0.0.9"),
        // ... and with no X-Forwarded-For ("-")
        row("10.0.0.5 - - [17/May/2025:10:11:12 +0200] \"GET /hello HTTP/1.1\" 200 5 \"-\" \"Mozilla/5.0\" \"-\"",
            "2025-05-17T08:11:12Z", "10.0.0.5", "GET", "/hello", null, 200, null)
            .headers("user-agent", "Mozilla/5.0"),
        // nginx with more fields after X-Forwarded-For (request time, upstream time)
        row("10.0.0.5 - - [17/May/2025:10:11:12 +0200] \"GET /hello HTTP/1.1\" 200 5 \"-\" \"UA\""
                + " \"2001:db8::7, 198.51.100.1:4711\" rt=0.004 \"upstream 10.0.0.1:8080\"",
            "2025-05-17T08:11:12Z", "10.0.0.5", "GET", "/hello", null, 200, null)
            .headers("user-agent", "UA", "x-forwarded-for", "2001:db8::7, 198.51.100.1:4711"),
        // common + a quoted X-Forwarded-For right after %b: an address list is never a referer
        row("10.0.0.5 - - [17/May/2025:10:11:12 +0200] \"GET /hello HTTP/1.1\" 200 5 \"unknown, 192.0.2.1\"",
            "2025-05-17T08:11:12Z", "10.0.0.5", "GET", "/hello", null, 200, null)
            .headers("x-forwarded-for", "unknown, 192.0.2.1"),
        // IPv6 client
        row("2001:db8:85a3::8a2e:370:7334 - - [01/Jan/2026:00:00:00 +0000] \"GET /hello HTTP/1.1\" 200 5",
            "2026-01-01T00:00:00Z", "2001:db8:85a3::8a2e:370:7334", "GET", "/hello", null, 200, null),
        // a full URL in the request line (a proxy's view): path and host
        row("192.0.2.4 - - [01/Jan/2026:00:00:00 +0000] \"GET http://shop.example:8080/cart?id=3 HTTP/1.1\" 200 5",
            "2026-01-01T00:00:00Z", "192.0.2.4", "GET", "/cart", "id=3", 200, null)
            .headers("host", "shop.example:8080"),
        row("192.0.2.4 - - [01/Jan/2026:00:00:00 +0000] \"GET https://user@shop.example HTTP/1.1\" 200 5",
            "2026-01-01T00:00:00Z", "192.0.2.4", "GET", "/", null, 200, null)
            .headers("host", "shop.example"),
        // no protocol (HTTP/0.9, or a format that leaves it out)
        row("192.0.2.4 - - [01/Jan/2026:00:00:00 +0000] \"GET /old/page\" 200 5",
            "2026-01-01T00:00:00Z", "192.0.2.4", "GET", "/old/page", null, 200, null),
        // a raw space in the path (nginx logs the request line as received)
        row("192.0.2.4 - - [01/Jan/2026:00:00:00 +0000] \"GET /a b?c d HTTP/1.1\" 400 5",
            "2026-01-01T00:00:00Z", "192.0.2.4", "GET", "/a b", "c d", 400, null),
        // an empty query
        row("192.0.2.4 - - [01/Jan/2026:00:00:00 +0000] \"GET /x? HTTP/1.1\" 200 5",
            "2026-01-01T00:00:00Z", "192.0.2.4", "GET", "/x", "", 200, null),
        // escaped quotes inside quoted fields (Apache, Tomcat)
        row("192.0.2.4 - - [01/Jan/2026:00:00:00 +0000] \"GET /q?s=\\\"x\\\" HTTP/1.1\" 200 5"
                + " \"-\" \"Agent \\\"quoted\\\" \\\\ end\"",
            "2026-01-01T00:00:00Z", "192.0.2.4", "GET", "/q", "s=\"x\"", 200, null)
            .headers("user-agent", "Agent \"quoted\" \\ end"),
        // nginx's \xHH escapes
        row("192.0.2.4 - - [01/Jan/2026:00:00:00 +0000] \"GET /caf\\xC3\\xA9 HTTP/1.1\" 200 5 \"-\" \"a\\x22b\"",
            "2026-01-01T00:00:00Z", "192.0.2.4", "GET", "/café", null, 200, null)
            .headers("user-agent", "a\"b"),
        // an old Apache that did not escape a quote in the request line
        row("192.0.2.4 - - [01/Jan/2026:00:00:00 +0000] \"GET /say\"hi\" HTTP/1.0\" 200 5 \"-\" \"UA\"",
            "2026-01-01T00:00:00Z", "192.0.2.4", "GET", "/say\"hi\"", null, 200, null)
            .headers("user-agent", "UA"),
        // a quoted user, a host name as client, several spaces, status "-"
        row("www.example.org  -  \"jane doe\"  [29/Feb/2024:12:00:00 -0000]  \"PUT /x HTTP/1.1\"  -  -",
            "2024-02-29T12:00:00Z", "www.example.org", "PUT", "/x", null, -1, "jane doe"),
        // no bytes field at all
        row("192.0.2.4 - - [01/Jan/2026:00:00:00 +0000] \"OPTIONS * HTTP/1.1\" 200",
            "2026-01-01T00:00:00Z", "192.0.2.4", "OPTIONS", "*", null, 200, null),
        // lower-case month, an unusual method
        row("192.0.2.4 - - [01/jan/2026:00:00:00 +0000] \"PURGE /cache HTTP/1.1\" 200 0",
            "2026-01-01T00:00:00Z", "192.0.2.4", "PURGE", "/cache", null, 200, null),

        // Apache vhost_combined: %v:%p first
        row("shop.example:443 192.0.2.4 - - [01/Jan/2026:00:00:00 +0000] \"GET /x HTTP/1.1\" 200 5 \"-\" \"UA\"",
            "2026-01-01T00:00:00Z", "192.0.2.4", "GET", "/x", null, 200, null)
            .headers("host", "shop.example", "user-agent", "UA"),
        row("shop.example:80 2001:db8::1 - alice [01/Jan/2026:00:00:00 +0000] \"GET /x HTTP/1.1\" 200 5",
            "2026-01-01T00:00:00Z", "2001:db8::1", "GET", "/x", null, 200, "alice")
            .headers("host", "shop.example"),

        refused("", "no client address"),
        refused("garbage", "no identity field"),
        refused("{\"time\":\"2026-01-01T00:00:00Z\",\"path\":\"/\"}", "a JSON line, not an NCSA one"),
        refused("192.0.2.4 - -", "no [time]"),
        refused("192.0.2.4 - - 01/Jan/2026:00:00:00 +0000 \"GET / HTTP/1.1\" 200 1", "no [time]"),
        refused("192.0.2.4 - - [01/Jan/2026:00:00:00 +0000 \"GET / HTTP/1.1\" 200 1", "unterminated [time]"),
        refused("192.0.2.4 - - [2026-01-01T00:00:00Z] \"GET / HTTP/1.1\" 200 1", "time is not"),
        refused("192.0.2.4 - - [31/Feb/2026:00:00:00 +0000] \"GET / HTTP/1.1\" 200 1", "time is not"),
        refused("192.0.2.4 - - [01/Foo/2026:00:00:00 +0000] \"GET / HTTP/1.1\" 200 1", "time is not"),
        refused("192.0.2.4 - - [01/Jan/2026:25:00:00 +0000] \"GET / HTTP/1.1\" 200 1", "time is not"),
        refused("192.0.2.4 - - [01/Jan/2026:00:00:00 +0000] GET / HTTP/1.1 200 1", "no quoted request line"),
        refused("192.0.2.4 - - [01/Jan/2026:00:00:00 +0000] \"GET / HTTP/1.1 200 1", "unterminated quoted request line"),
        refused("192.0.2.4 - - [01/Jan/2026:00:00:00 +0000] \"GET / HTTP/1.1\" OK 1", "status is not a number"),
        refused("192.0.2.4 - - [01/Jan/2026:00:00:00 +0000] \"GET / HTTP/1.1\" 2000 1", "status is not a number"),
        refused("192.0.2.4 - - [01/Jan/2026:00:00:00 +0000] \"-\" 408 0 \"-\" \"-\"", "no request line (\"-\")"),
        refused("192.0.2.4 - - [01/Jan/2026:00:00:00 +0000] \"\" 400 0", "empty request line"),
        refused("192.0.2.4 - - [01/Jan/2026:00:00:00 +0000] \"\\x16\\x03\\x01\\x02\" 400 0", "does not start with a method"),
        refused("192.0.2.4 - - [01/Jan/2026:00:00:00 +0000] \"GET\" 400 0", "a method and no path"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("lines")
  void readsTheLineAsTheTableSays(ExpectedRequest expected) {
    expected.check(new NcsaLineParser());
  }

  @Test
  void theSameParserReadsLineAfterLineWithItsCaches() {
    NcsaLineParser parser = new NcsaLineParser();
    lines().forEach(expected -> expected.check(parser));
    lines().forEach(expected -> expected.check(parser));
  }

  @Test
  void bytesThatAreNotUtf8BecomeReplacementCharactersNotAnException() {
    byte[] line = ("192.0.2.4 - - [01/Jan/2026:00:00:00 +0000] \"GET /\u00ff\u00fe HTTP/1.1\" 200 5"
        + " \"-\" \"\u00c3\u0028\"").getBytes(StandardCharsets.ISO_8859_1);
    LoggedRequest r = new NcsaLineParser().parse(line, 0, line.length, "x", 1);
    assertNotNull(r);
    assertEquals("/\uFFFD\uFFFD", r.path);
    assertTrue(r.header("User-Agent").contains("\uFFFD"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"198.51.100.23", "198.51.100.23, 10.0.0.9", "2001:db8::1",
      "[2001:db8::1]:443, 10.0.0.1:80", "unknown, 10.0.0.1", "10.0.0.1,10.0.0.2"})
  void addressLists(String value) {
    assertTrue(NcsaLineParser.looksLikeAddressList(value));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "unknown", "-", "curl/8.5.0", "Mozilla/5.0 (X11; Linux x86_64)",
      "http://10.0.0.1/", "deadbeef", "1234", "10.0.0.1 hello", "a.b.c.d"})
  void notAddressLists(String value) {
    assertFalse(NcsaLineParser.looksLikeAddressList(value));
  }
}
