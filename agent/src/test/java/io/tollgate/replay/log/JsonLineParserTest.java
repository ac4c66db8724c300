package io.tollgate.replay.log;

import static io.tollgate.replay.log.ExpectedRequest.refused;
import static io.tollgate.replay.log.ExpectedRequest.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class JsonLineParserTest {

  /** Lines read with the default field names. */
  static Stream<ExpectedRequest> defaultFields() {
    return Stream.of(
        // nginx: log_format json escape=json '{"time_iso8601":"$time_iso8601",...}'
        row("{\"time_iso8601\":\"2026-01-01T10:00:00+01:00\",\"remote_addr\":\"198.51.100.4\","
                + "\"remote_user\":\"\",\"request\":\"GET /api/search?q=a%20b HTTP/1.1\","
                + "\"status\":\"200\",\"body_bytes_sent\":\"512\",\"http_referer\":\"\","
                + "\"http_user_agent\":\"curl/8.5.0\",\"http_x_forwarded_for\":\"203.0.113.1\"}",
            "2026-01-01T09:00:00Z", "198.51.100.4", "GET", "/api/search", "q=a%20b", 200, null)
            .headers("user-agent", "curl/8.5.0", "x-forwarded-for", "203.0.113.1"),
        // nginx: request_method + request_uri, time_local, host, a numeric status, $http_x_api_key
        row("{\"time_local\":\"01/Jan/2026:10:00:00 +0100\",\"remote_addr\":\"2001:db8::1\","
                + "\"request_method\":\"POST\",\"request_uri\":\"/login?next=/\",\"status\":401,"
                + "\"host\":\"shop.example\",\"http_x_api_key\":\"k-123\",\"remote_user\":\"bob\"}",
            "2026-01-01T09:00:00Z", "2001:db8::1", "POST", "/login", "next=/", 401, "bob")
            .headers("host", "shop.example", "x-api-key", "k-123"),
        // nginx: $uri and $args, $msec (epoch seconds with a fraction)
        row("{\"msec\":\"1767261600.123\",\"remote_addr\":\"192.0.2.1\",\"request_method\":\"GET\","
                + "\"uri\":\"/hello\",\"args\":\"a=1\",\"status\":\"204\"}",
            "2026-01-01T10:00:00.123Z", "192.0.2.1", "GET", "/hello", "a=1", 204, null),
        // nginx without escape=json: \xHH in strings
        row("{\"time\":\"2026-01-01T10:00:00Z\",\"remote_addr\":\"192.0.2.1\",\"request\":\"GET /caf\\xC3\\xA9 HTTP/1.1\","
                + "\"http_user_agent\":\"a\\x22b\",\"status\":\"200\"}",
            "2026-01-01T10:00:00Z", "192.0.2.1", "GET", "/café", null, 200, null)
            .headers("user-agent", "a\"b"),
        // Caddy: ts in seconds, a nested request with arrays of header values
        row("{\"level\":\"info\",\"ts\":1767261600.5,\"logger\":\"http.log.access\",\"msg\":\"handled request\","
                + "\"request\":{\"remote_ip\":\"192.0.2.7\",\"client_ip\":\"203.0.113.50\",\"proto\":\"HTTP/2.0\","
                + "\"method\":\"GET\",\"host\":\"shop.example\",\"uri\":\"/api/orders/7?x=1\","
                + "\"headers\":{\"User-Agent\":[\"Go-http-client/2.0\"],\"Accept\":[\"a\",\"b\"]},\"tls\":{\"resumed\":false}},"
                + "\"duration\":0.0012,\"size\":12,\"status\":200,\"resp_headers\":{\"Server\":[\"Caddy\"]}}",
            "2026-01-01T10:00:00.500Z", "203.0.113.50", "GET", "/api/orders/7", "x=1", 200, null)
            .headers("host", "shop.example", "user-agent", "Go-http-client/2.0", "accept", "a, b"),
        // Traefik
        row("{\"ClientHost\":\"192.0.2.8\",\"RequestMethod\":\"DELETE\",\"RequestPath\":\"/api/orders/9\","
                + "\"DownstreamStatus\":204,\"StartUTC\":\"2026-01-01T10:00:00.123456789Z\",\"RequestHost\":\"api.example\"}",
            "2026-01-01T10:00:00.123Z", "192.0.2.8", "DELETE", "/api/orders/9", null, 204, null)
            .headers("host", "api.example"),
        // generic: @timestamp, ip, method, url with a full URL, epoch millis as a number elsewhere
        row("{\"@timestamp\":\"2026-01-01 10:00:00.250\",\"ip\":\"192.0.2.9\",\"method\":\"GET\","
                + "\"url\":\"https://shop.example/cart?id=1\",\"status_code\":\"503\",\"user\":\"-\"}",
            "2026-01-01T10:00:00.250Z", "192.0.2.9", "GET", "/cart", "id=1", 503, null)
            .headers("host", "shop.example"),
        row("{\"timestamp\":1767261600000,\"client\":\"192.0.2.9\",\"request\":\"HEAD /health\"}",
            "2026-01-01T10:00:00Z", "192.0.2.9", "HEAD", "/health", null, -1, null),
        // escapes, unicode, whitespace, nulls, booleans and unknown fields
        row(" { \"time\" : \"2026-01-01T10:00:00Z\" , \"method\" : \"GET\" , \"path\" : \"/\\u00e9t\\u00E9\\/x\" ,"
                + " \"user_agent\" : \"tab\\there \\ud83d\\ude00\" , \"status\" : null , \"cached\" : true ,"
                + " \"n\" : -1.5e3 , \"list\" : [ ] , \"deep\" : [ [ 1 ] , { \"a\" : [ ] } ] } ",
            "2026-01-01T10:00:00Z", null, "GET", "/été/x", null, -1, null)
            .headers("user-agent", "tab\there \uD83D\uDE00"),

        refused("not json", "not a JSON object"),
        refused("[1,2]", "not a JSON object"),
        refused("{\"time\":\"2026-01-01T10:00:00Z\",\"method\":\"GET\",\"path\":\"/x\"", "expected ',' or '}'"),
        refused("{\"time\":\"2026-01-01T10:00:00Z\",\"path\":\"/x", "unterminated string"),
        refused("{\"time\":\"2026-01-01T10:00:00Z\"} trailing", "text after the JSON object"),
        refused("{\"time\" \"x\"}", "expected ':'"),
        refused("{\"a\":tru}", "unexpected character"),
        refused("{\"a\":\"\\q\"}", "bad escape"),
        refused("{\"a\":" + "[".repeat(100) + "}", "nested deeper than"),
        refused("{\"method\":\"GET\",\"path\":\"/x\"}", "no time field (time, @timestamp"),
        refused("{\"time\":\"yesterday\",\"method\":\"GET\",\"path\":\"/x\"}", "time \"yesterday\" is not"),
        refused("{\"time\":\"2026-01-01T10:00:00Z\",\"status\":200}", "no path field"),
        refused("{\"time\":\"2026-01-01T10:00:00Z\",\"path\":\"/x\"}", "no method field"),
        refused("{\"time\":\"2026-01-01T10:00:00Z\",\"request\":\"-\"}", "and no request line"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("defaultFields")
  void readsTheLineWithTheDefaultFieldNames(ExpectedRequest expected) {
    expected.check(new JsonLineParser(JsonFields.defaults()));
  }

  @Test
  void theSameParserReadsLineAfterLine() {
    JsonLineParser parser = new JsonLineParser(JsonFields.defaults());
    defaultFields().forEach(expected -> expected.check(parser));
    defaultFields().forEach(expected -> expected.check(parser));
  }

  /** --field time=when --field client=peer --field path=target --field header.x-tenant=tenant */
  static Stream<ExpectedRequest> configuredFields() {
    return Stream.of(
        row("{\"when\":\"01/Jan/2026:10:00:00 +0000\",\"peer\":\"192.0.2.1\",\"method\":\"GET\","
                + "\"target\":\"/a?b=c\",\"tenant\":\"acme\",\"remote_addr\":\"ignored\",\"time\":\"ignored\"}",
            "2026-01-01T10:00:00Z", "192.0.2.1", "GET", "/a", "b=c", -1, null)
            .headers("x-tenant", "acme"),
        row("{\"when\":\"[01/Jan/2026:10:00:00 +0000]\",\"method\":\"GET\",\"target\":\"/a\",\"path\":\"/ignored\"}",
            "2026-01-01T10:00:00Z", null, "GET", "/a", null, -1, null),
        refused("{\"time\":\"2026-01-01T10:00:00Z\",\"method\":\"GET\",\"path\":\"/a\"}", "no time field (when)"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("configuredFields")
  void readsTheLineWithTheFieldsNamedOnTheCommandLine(ExpectedRequest expected) {
    JsonFields fields = JsonFields.defaults()
        .with("time=when").with("client=peer").with("path=target").with("header.X-Tenant=tenant");
    expected.check(new JsonLineParser(fields));
  }

  @Test
  void fieldOptionsAreCheckedWithAMessageThatHelps() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> JsonFields.defaults().with("tme=ts"));
    assertTrue(e.getMessage().contains("unknown field role 'tme'"), e.getMessage());
    assertTrue(e.getMessage().contains("time, client, method, path"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> JsonFields.defaults().with("time"));
    assertTrue(e.getMessage().contains("ROLE=FIELD"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> JsonFields.defaults().with("time="));
    assertTrue(e.getMessage().contains("no field name"), e.getMessage());
    assertEquals(List.of("ts"), JsonFields.defaults().with(" Time = ts ").candidates("time"));
    assertEquals(List.of("time", "@timestamp", "timestamp", "time_iso8601", "time_local", "ts",
        "msec", "date", "datetime", "StartUTC", "start_time"),
        JsonFields.defaults().candidates("time"), "the defaults are untouched");
  }
}
