package io.tollgate.testapps.outbound;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * N calls at R a second with one client: each starts on its own thread at its time, whatever the
 * earlier ones are doing (a slow or paced call does not delay the next one's start), as calls made
 * for separate incoming requests would.
 */
final class Burst {

  private final Clients.Client client;
  private final String url;
  private final int calls;
  private final double perSecond;

  Burst(Clients.Client client, String url, int calls, double perSecond) {
    this.client = client;
    this.url = url;
    this.calls = calls;
    this.perSecond = perSecond;
  }

  /** How the calls went. */
  static final class Outcome {
    final Map<String, Integer> statuses = new TreeMap<>();
    final Map<String, Integer> exceptions = new TreeMap<>();
    /** The first message of each exception class. */
    final Map<String, String> messages = new TreeMap<>();
    long longestMillis;

    synchronized void status(int status) {
      statuses.merge(Integer.toString(status), 1, Integer::sum);
    }

    synchronized void exception(Throwable failure) {
      String name = failure.getClass().getName();
      exceptions.merge(name, 1, Integer::sum);
      messages.putIfAbsent(name, String.valueOf(failure.getMessage()));
    }

    synchronized void took(long millis) {
      longestMillis = Math.max(longestMillis, millis);
    }

    synchronized String toJson(String clientName) {
      return "{\"client\":\"" + escape(clientName) + "\",\"statuses\":" + json(statuses)
          + ",\"exceptions\":" + json(exceptions) + ",\"messages\":" + strings(messages)
          + ",\"longestMillis\":" + longestMillis + "}";
    }
  }

  Outcome run() throws InterruptedException {
    Outcome outcome = new Outcome();
    CountDownLatch done = new CountDownLatch(calls);
    ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
    ExecutorService callers = Executors.newCachedThreadPool();
    try {
      long periodNanos = (long) (1_000_000_000L / perSecond);
      for (int i = 0; i < calls; i++) {
        ticker.schedule(() -> callers.execute(() -> {
          long start = System.nanoTime();
          try {
            outcome.status(client.call(url));
          } catch (Throwable t) {
            outcome.exception(unwrapped(t));
          } finally {
            outcome.took(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
            done.countDown();
          }
        }), i * periodNanos, TimeUnit.NANOSECONDS);
      }
      if (!done.await(5, TimeUnit.MINUTES)) {
        outcome.exception(new IllegalStateException("calls still running after 5 minutes"));
      }
      return outcome;
    } finally {
      ticker.shutdownNow();
      callers.shutdownNow();
    }
  }

  /** The cause of a future's {@code ExecutionException}: what the client failed the call with. */
  private static Throwable unwrapped(Throwable t) {
    return t instanceof java.util.concurrent.ExecutionException && t.getCause() != null
        ? t.getCause()
        : t;
  }

  private static String json(Map<String, Integer> counts) {
    StringBuilder json = new StringBuilder("{");
    for (Map.Entry<String, Integer> entry : counts.entrySet()) {
      json.append(json.length() > 1 ? "," : "").append('"').append(escape(entry.getKey()))
          .append("\":").append(entry.getValue());
    }
    return json.append('}').toString();
  }

  private static String strings(Map<String, String> texts) {
    StringBuilder json = new StringBuilder("{");
    for (Map.Entry<String, String> entry : texts.entrySet()) {
      json.append(json.length() > 1 ? "," : "").append('"').append(escape(entry.getKey()))
          .append("\":\"").append(escape(entry.getValue())).append('"');
    }
    return json.append('}').toString();
  }

  static String escape(String text) {
    StringBuilder escaped = new StringBuilder();
    for (char c : text.toCharArray()) {
      if (c == '"' || c == '\\') {
        escaped.append('\\').append(c);
      } else if (c < 0x20) {
        escaped.append(String.format("\\u%04x", (int) c));
      } else {
        escaped.append(c);
      }
    }
    return escaped.toString();
  }
}
