package io.tollgate.testapps.outbound_client;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * N calls started at R per second, each on a thread of its own (as an application's request
 * threads would make them), timed from its start to its outcome.
 */
final class Burst {

  private final Clients.Client client;
  private final String url;
  private final int calls;
  private final double perSecond;

  Burst(Clients.Client client, String url, int calls, double perSecond) {
    if (url == null) {
      throw new IllegalArgumentException("url is missing");
    }
    this.client = client;
    this.url = url;
    this.calls = calls;
    this.perSecond = perSecond;
  }

  /** What the calls ended with. */
  static final class Outcome {
    final Map<String, Integer> statuses = new TreeMap<>();
    final Map<String, Integer> exceptions = new TreeMap<>();
    final AtomicLong longestMillis = new AtomicLong();

    synchronized void status(int status) {
      statuses.merge(Integer.toString(status), 1, Integer::sum);
    }

    synchronized void exception(Throwable t) {
      exceptions.merge(t.getClass().getName(), 1, Integer::sum);
    }

    void took(long nanos) {
      longestMillis.accumulateAndGet(TimeUnit.NANOSECONDS.toMillis(nanos), Math::max);
    }

    synchronized String toJson() {
      return "{\"statuses\":" + json(statuses) + ",\"exceptions\":" + json(exceptions)
          + ",\"longestMillis\":" + longestMillis.get() + "}";
    }

    private static String json(Map<String, Integer> counts) {
      StringBuilder sb = new StringBuilder("{");
      for (Map.Entry<String, Integer> e : counts.entrySet()) {
        if (sb.length() > 1) {
          sb.append(',');
        }
        sb.append('"').append(e.getKey()).append("\":").append(e.getValue());
      }
      return sb.append('}').toString();
    }
  }

  Outcome run() throws InterruptedException {
    Outcome outcome = new Outcome();
    ExecutorService threads = Executors.newCachedThreadPool();
    List<CompletableFuture<Void>> done = new ArrayList<>();
    long start = System.nanoTime();
    long gap = (long) (TimeUnit.SECONDS.toNanos(1) / perSecond);
    try {
      for (int i = 0; i < calls; i++) {
        long due = start + i * gap;
        long wait = due - System.nanoTime();
        if (wait > 0) {
          TimeUnit.NANOSECONDS.sleep(wait);
        }
        CompletableFuture<Void> one = new CompletableFuture<>();
        done.add(one);
        threads.execute(() -> {
          long began = System.nanoTime();
          client.call(url).whenComplete((status, failure) -> {
            outcome.took(System.nanoTime() - began);
            if (failure != null) {
              outcome.exception(unwrap(failure));
            } else {
              outcome.status(status);
            }
            one.complete(null);
          });
        });
      }
      for (CompletableFuture<Void> one : done) {
        try {
          one.get(2, TimeUnit.MINUTES);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
          outcome.exception(e);
        }
      }
    } finally {
      threads.shutdownNow();
    }
    return outcome;
  }

  private static Throwable unwrap(Throwable t) {
    while ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }
}
