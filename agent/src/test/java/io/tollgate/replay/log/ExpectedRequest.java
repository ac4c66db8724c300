package io.tollgate.replay.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One row of a parser's table: a log line and either the request it must give or (a part of) the
 * reason it is refused. Shown by its line in the test report.
 */
final class ExpectedRequest {

  final String line;
  final String time; // ISO-8601 instant
  final String client;
  final String method;
  final String path;
  final String query;
  final int status;
  final String user;
  final Map<String, String> headers = new LinkedHashMap<>();
  final String error;

  private ExpectedRequest(String line, String time, String client, String method, String path,
      String query, int status, String user, String error) {
    this.line = line;
    this.time = time;
    this.client = client;
    this.method = method;
    this.path = path;
    this.query = query;
    this.status = status;
    this.user = user;
    this.error = error;
  }

  /** A line and the request it gives. */
  static ExpectedRequest row(String line, String time, String client, String method, String path,
      String query, int status, String user) {
    return new ExpectedRequest(line, time, client, method, path, query, status, user, null);
  }

  /** A line that is refused with a reason containing {@code reason}. */
  static ExpectedRequest refused(String line, String reason) {
    return new ExpectedRequest(line, null, null, null, null, null, 0, null, reason);
  }

  /** The headers the request has, exactly: name, value, name, value... */
  ExpectedRequest headers(String... nameValue) {
    for (int i = 0; i < nameValue.length; i += 2) {
      headers.put(nameValue[i], nameValue[i + 1]);
    }
    return this;
  }

  void check(LineParser parser) {
    byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
    LoggedRequest r = parser.parse(bytes, 0, bytes.length, "test.log", 7);
    if (error != null) {
      assertNull(r, () -> "parsed as " + r);
      assertNotNull(parser.whyNot());
      assertTrue(parser.whyNot().contains(error), parser.whyNot());
      return;
    }
    assertNotNull(r, () -> "refused: " + parser.whyNot());
    assertEquals(Instant.parse(time).toEpochMilli(), r.epochMillis, "time");
    assertEquals(client, r.clientAddress, "client");
    assertEquals(method, r.method, "method");
    assertEquals(path, r.path, "path");
    assertEquals(query, r.query, "query");
    assertEquals(status, r.status, "status");
    assertEquals(user, r.user, "user");
    assertEquals(headers, r.headers, "headers");
    assertEquals("test.log", r.source);
    assertEquals(7, r.lineNumber);
  }

  @Override
  public String toString() {
    if (line.isEmpty()) {
      return "(an empty line)";
    }
    return line.length() > 120 ? line.substring(0, 120) + "..." : line;
  }
}
