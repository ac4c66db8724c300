package io.tollgate.testing.partner;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A partner's API on loopback that enforces a hard limit, as the partners of outbound rules do:
 * at most {@code limit} requests in any {@code window} (a sliding log, the strictest reading of
 * "10 a second"), each one past it answered {@code 429} with {@code Retry-After} and the draft's
 * {@code RateLimit} headers, and not counted as accepted.
 *
 * <p>It records when each request arrived, so that a test can say what the partner saw: how many
 * it accepted, how many it refused, and the most it accepted in any window. A test can also make
 * it refuse the next calls whatever the limit ({@link #refuseNext}), to see a client honour a
 * partner's {@code Retry-After}.
 *
 * <pre>{@code
 * try (PartnerStub partner = PartnerStub.start(10, Duration.ofSeconds(1))) {
 *   ... the app calls partner.url("/orders") 50 times a second ...
 *   assertEquals(0, partner.refused());
 *   assertTrue(partner.mostAcceptedInAnyWindow() <= 10);
 * }
 * }</pre>
 */
public final class PartnerStub implements AutoCloseable {

  private final HttpServer server;
  private final ExecutorService threads;
  private final int limit;
  private final long windowNanos;
  private final long startNanos = System.nanoTime();

  private final Object lock = new Object();
  /** Arrival times of the accepted requests still inside the window, oldest first. */
  private final ArrayDeque<Long> recent = new ArrayDeque<>();
  /** Arrival times of every accepted request, for {@link #mostAcceptedInAnyWindow}. */
  private final List<Long> accepted = new ArrayList<>();
  private int refused;
  private int forcedRefusals;
  private long forcedRetryAfterSeconds;

  private PartnerStub(int limit, Duration window) throws IOException {
    this.limit = limit;
    this.windowNanos = window.toNanos();
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 200);
    this.threads = Executors.newFixedThreadPool(16, runnable -> {
      Thread thread = new Thread(runnable, "partner-stub");
      thread.setDaemon(true);
      return thread;
    });
    server.setExecutor(threads);
    server.createContext("/", this::answer);
    server.start();
  }

  /** A partner on a free loopback port allowing {@code limit} requests in any {@code window}. */
  public static PartnerStub start(int limit, Duration window) throws IOException {
    return new PartnerStub(limit, window);
  }

  /** The absolute URL of {@code path} on this partner: {@code http://127.0.0.1:PORT/path}. */
  public String url(String path) {
    return "http://127.0.0.1:" + port() + (path.startsWith("/") ? path : "/" + path);
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** Answers the next {@code count} requests 429 with {@code Retry-After: retryAfterSeconds}. */
  public void refuseNext(int count, long retryAfterSeconds) {
    synchronized (lock) {
      forcedRefusals = count;
      forcedRetryAfterSeconds = retryAfterSeconds;
    }
  }

  public int accepted() {
    synchronized (lock) {
      return accepted.size();
    }
  }

  /** The requests answered 429, by the limit or by {@link #refuseNext}. */
  public int refused() {
    synchronized (lock) {
      return refused;
    }
  }

  /** The most requests accepted within any one window: at most the limit, by construction. */
  public int mostAcceptedInAnyWindow() {
    return mostAcceptedWithin(windowNanos);
  }

  /** The most requests accepted within any span of {@code span}, read from their arrival times. */
  public int mostAcceptedWithin(Duration span) {
    return mostAcceptedWithin(span.toNanos());
  }

  /** Arrival times of the accepted requests, in milliseconds since the partner started. */
  public List<Long> acceptedAtMillis() {
    List<Long> millis = new ArrayList<>();
    synchronized (lock) {
      for (long at : accepted) {
        millis.add(TimeUnit.NANOSECONDS.toMillis(at - startNanos));
      }
    }
    return millis;
  }

  /** Forgets what it has seen and accepted, as a new second of a new test. */
  public void reset() {
    synchronized (lock) {
      recent.clear();
      accepted.clear();
      refused = 0;
      forcedRefusals = 0;
    }
  }

  private int mostAcceptedWithin(long spanNanos) {
    synchronized (lock) {
      int most = 0;
      int first = 0;
      for (int last = 0; last < accepted.size(); last++) {
        while (accepted.get(last) - accepted.get(first) >= spanNanos) {
          first++;
        }
        most = Math.max(most, last - first + 1);
      }
      return most;
    }
  }

  private void answer(HttpExchange exchange) throws IOException {
    try (InputStream body = exchange.getRequestBody()) {
      body.readAllBytes();
    }
    long now = System.nanoTime();
    long retryAfterSeconds = -1;
    int remaining;
    synchronized (lock) {
      while (!recent.isEmpty() && now - recent.peekFirst() >= windowNanos) {
        recent.pollFirst();
      }
      if (forcedRefusals > 0) {
        forcedRefusals--;
        refused++;
        retryAfterSeconds = forcedRetryAfterSeconds;
        remaining = 0;
      } else if (recent.size() >= limit) {
        refused++;
        long freeAt = recent.peekFirst() + windowNanos;
        retryAfterSeconds = Math.max(1, TimeUnit.NANOSECONDS.toSeconds(freeAt - now + 999_999_999L));
        remaining = 0;
      } else {
        recent.addLast(now);
        accepted.add(now);
        remaining = limit - recent.size();
      }
    }
    long windowSeconds = Math.max(1, TimeUnit.NANOSECONDS.toSeconds(windowNanos));
    exchange.getResponseHeaders().add("RateLimit-Policy",
        "\"partner\";q=" + limit + ";w=" + windowSeconds);
    byte[] body;
    if (retryAfterSeconds >= 0) {
      exchange.getResponseHeaders().add("Retry-After", Long.toString(retryAfterSeconds));
      exchange.getResponseHeaders().add("RateLimit",
          "\"partner\";r=0;t=" + retryAfterSeconds);
      body = "{\"error\":\"too many requests\"}".getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(429, body.length);
    } else {
      exchange.getResponseHeaders().add("RateLimit",
          "\"partner\";r=" + remaining + ";t=" + windowSeconds);
      body = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, body.length);
    }
    exchange.getResponseBody().write(body);
    exchange.close();
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
