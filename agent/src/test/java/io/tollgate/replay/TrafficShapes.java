package io.tollgate.replay;

import io.tollgate.replay.log.LoggedRequest;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Traffic of known shapes, as an access log records it (to the second, as NCSA logs do), with
 * exact expected counts worked out in {@link ReplayShapesTest}. Every shape starts at {@link #T0},
 * a whole hour, so that fixed windows of a minute start at its whole minutes.
 *
 * <p>{@code benchmarks/replay/GenerateAccessLog.java} is a copy of the shapes for the benchmark.
 */
public final class TrafficShapes {

  /** 2026-11-30T10:00:00Z. */
  public static final long T0 = Instant.parse("2026-11-30T10:00:00Z").toEpochMilli();

  private final List<LoggedRequest> requests = new ArrayList<>();
  private long line;

  public static TrafficShapes traffic() {
    return new TrafficShapes();
  }

  /** One request at {@code T0 + second} s. */
  public TrafficShapes request(long second, String ip, String method, String path, String userAgent) {
    return request(second, ip, method, path, null, userAgent, null);
  }

  public TrafficShapes request(
      long second, String ip, String method, String path, String query, String userAgent,
      Map<String, String> moreHeaders) {
    Map<String, String> headers = new HashMap<>();
    if (userAgent != null) {
      headers.put("user-agent", userAgent);
    }
    if (moreHeaders != null) {
      for (Map.Entry<String, String> h : moreHeaders.entrySet()) {
        headers.put(h.getKey().toLowerCase(Locale.ROOT), h.getValue());
      }
    }
    requests.add(new LoggedRequest(T0 + second * 1000, ip, method, path, query, 200, null,
        headers, "shapes.log", ++line));
    return this;
  }

  /** A steady client: one {@code GET path} a second from {@code ip}, for {@code seconds}. */
  public TrafficShapes steady(String ip, String path, int seconds) {
    for (int s = 0; s < seconds; s++) {
      request(s, ip, "GET", path, "steady/1.0");
    }
    return this;
  }

  /**
   * {@code perSide} requests in the last second of a minute (10:00:59) and as many in the first
   * second of the next (10:01:00), from one address: 2 × limit straddling a fixed window's
   * boundary when {@code perSide} is the limit.
   */
  public TrafficShapes burstAtBoundary(String ip, String path, int perSide) {
    for (int i = 0; i < perSide; i++) {
      request(59, ip, "GET", path, "burst/1.0");
    }
    for (int i = 0; i < perSide; i++) {
      request(60, ip, "GET", path, "burst/1.0");
    }
    return this;
  }

  /**
   * A scraper at 300 requests a minute (5 a second) for {@code minutes}, spread round-robin over
   * three addresses (100 a minute each), all with one User-Agent.
   */
  public TrafficShapes scraper(String path, int minutes) {
    String[] ips = {"198.51.100.1", "198.51.100.2", "198.51.100.3"};
    int n = 0;
    for (int s = 0; s < minutes * 60; s++) {
      for (int i = 0; i < 5; i++) {
        request(s, ips[n++ % 3], "GET", path + "/" + n, "scraper/2.1");
      }
    }
    return this;
  }

  /**
   * A partner at 20 requests a second for {@code seconds}, with a burst of 60 more at each tenth
   * second after the first (10, 20, ... 50 for a minute): 80 in those seconds.
   */
  public TrafficShapes partner(String ip, String path, int seconds) {
    for (int s = 0; s < seconds; s++) {
      int n = 20 + (s > 0 && s % 10 == 0 ? 60 : 0);
      for (int i = 0; i < n; i++) {
        request(s, ip, "GET", path, "partner-sync/3.0");
      }
    }
    return this;
  }

  /**
   * A crowd of {@code clients} addresses over {@code minutes}, the {@code i}th (from 0) sending
   * {@code max(1, 2000 / (i + 1))} requests spread evenly: few keys sending much, many sending
   * little, as in real traffic.
   */
  public TrafficShapes crowd(String path, int clients, int minutes) {
    for (int i = 0; i < clients; i++) {
      int n = Math.max(1, 2000 / (i + 1));
      String ip = "10.1." + (i / 250) + "." + (i % 250 + 1);
      for (int j = 0; j < n; j++) {
        request((long) j * minutes * 60 / n, ip, "GET", path, "browser/" + (i % 40) + ".0");
      }
    }
    return this;
  }

  /** The requests in time order (stable: as added within a second). */
  public List<LoggedRequest> requests() {
    List<LoggedRequest> sorted = new ArrayList<>(requests);
    sorted.sort(Comparator.comparingLong(r -> r.epochMillis));
    return Collections.unmodifiableList(sorted);
  }

  private static final DateTimeFormatter NCSA =
      DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT).withZone(ZoneOffset.UTC);

  /** Writes the requests as an NCSA combined log (nginx's and Apache's default). */
  public Path writeCombined(Path file) throws IOException {
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (LoggedRequest r : requests()) {
        out.write(combinedLine(r));
        out.write('\n');
      }
    }
    return file;
  }

  public static String combinedLine(LoggedRequest r) {
    String target = r.query == null ? r.path : r.path + "?" + r.query;
    String ua = r.header("user-agent");
    return r.clientAddress + " - " + (r.user == null ? "-" : r.user) + " ["
        + NCSA.format(Instant.ofEpochMilli(r.epochMillis)) + "] \"" + r.method + " " + target
        + " HTTP/1.1\" " + r.status + " 512 \"-\" \"" + (ua == null ? "-" : ua) + "\"";
  }
}
