package io.tollgate.testing.attack;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The slow-sender attack of issue 28 (row 3) as a benchmark, for benchmarks/run-slow-senders.sh:
 * legitimate clients log in ({@code POST /login}, a small form) as fast as the app answers them,
 * each from its own address, for a phase of {@code --seconds} without the attack, then the same
 * with it, then again after it. The attack is {@link SlowSenders}, as in {@code SlowSendersIT}: {@code --attack}
 * connections from one client ({@value SlowSenders#ATTACKER}) that announce {@code Content-Length: 100000}
 * and send one byte a second, each opened again as soon as it gets an answer.
 *
 * <p>Clients are told apart by {@code X-Forwarded-For} (the rules file trusts one proxy hop): every
 * socket here comes from the loopback address. Each phase prints one line:
 *
 * <pre>
 * RESULT label phase=attack seconds=10.0 ok=1234 r429=0 r503=12 other=0 errors=0 attacker_answers=40
 * </pre>
 *
 * {@code ok} counts 2xx, {@code attacker_answers} the attack's connections answered (refused)
 * during the phase. Figures only: the script compares them between runs.
 *
 * <pre>
 * java -cp agent/target/test-classes io.tollgate.testing.attack.SlowSendersLoad --port 8080 --label none \
 *   --seconds 10 --clients 4 --attack 15 [--held-off]
 * </pre>
 *
 * {@code --held-off}: before the attack phase, wait (up to 60 s) until the attacker's own quick
 * login is refused, that is until its slow requests hold all the rule lets them hold; without it
 * (no agent: nothing refuses) the phase starts once every attack connection has sent its headers
 * and two bytes of body.
 */
public final class SlowSendersLoad {

  private final int port;
  private final HttpClient http = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(20))
      .build();

  private SlowSendersLoad(int port) {
    this.port = port;
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--held-off")) {
        options.put("held-off", "true");
      } else if (args[i].startsWith("--") && i + 1 < args.length) {
        options.put(args[i].substring(2), args[++i]);
      } else {
        System.err.println("unknown argument " + args[i]);
        System.exit(2);
      }
    }
    int port = Integer.parseInt(required(options, "port"));
    String label = options.getOrDefault("label", "run");
    double seconds = Double.parseDouble(options.getOrDefault("seconds", "10"));
    int clients = Integer.parseInt(options.getOrDefault("clients", "4"));
    int attackConnections = Integer.parseInt(options.getOrDefault("attack", "15"));
    double warm = Double.parseDouble(options.getOrDefault("warm", "3"));
    boolean heldOff = options.containsKey("held-off");

    SlowSendersLoad load = new SlowSendersLoad(port);
    load.phase(clients, warm, null); // the JIT's warm-up, not counted
    System.out.println(load.phase(clients, seconds, null).line(label, "quiet"));
    try (SlowSenders attack = new SlowSenders(port, attackConnections)) {
      long waitStart = System.nanoTime();
      String held = load.awaitAttackInPlace(attack, heldOff);
      System.out.printf(Locale.ROOT, "ATTACK %s in place after %d ms: %s%n", label,
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - waitStart), held);
      System.out.println(load.phase(clients, seconds, attack).line(label, "attack"));
    }
    System.out.println(load.phase(clients, seconds, null).line(label, "after"));
  }

  private static String required(Map<String, String> options, String name) {
    String value = options.get(name);
    if (value == null) {
      System.err.println("--" + name + " is required");
      System.exit(2);
    }
    return value;
  }

  /** What one phase's legitimate clients got. */
  private static final class Tally {
    final AtomicLong ok = new AtomicLong();
    final AtomicLong tooMany = new AtomicLong();
    final AtomicLong unavailable = new AtomicLong();
    final AtomicLong other = new AtomicLong();
    final AtomicLong errors = new AtomicLong();
    double seconds;
    int attackerAnswers;

    void count(int status) {
      if (status >= 200 && status < 300) {
        ok.incrementAndGet();
      } else if (status == 429) {
        tooMany.incrementAndGet();
      } else if (status == 503) {
        unavailable.incrementAndGet();
      } else {
        other.incrementAndGet();
      }
    }

    String line(String label, String phase) {
      return String.format(Locale.ROOT,
          "RESULT %s phase=%s seconds=%.1f ok=%d r429=%d r503=%d other=%d errors=%d"
              + " attacker_answers=%d",
          label, phase, seconds, ok.get(), tooMany.get(), unavailable.get(), other.get(),
          errors.get(), attackerAnswers);
    }
  }

  /**
   * {@code clients} legitimate clients, each from its own address, log in one request after the
   * other for {@code seconds}; requests still running at the end are counted when they end.
   */
  private Tally phase(int clients, double seconds, SlowSenders attack) throws Exception {
    Tally tally = new Tally();
    int answersBefore = attack == null ? 0 : attack.answered.get();
    long start = System.nanoTime();
    long end = start + (long) (seconds * 1e9);
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        String address = "198.51.100." + (c + 1);
        running.add(pool.submit(() -> {
          while (System.nanoTime() < end) {
            try {
              tally.count(http.send(login(address), HttpResponse.BodyHandlers.discarding())
                  .statusCode());
            } catch (IOException e) {
              tally.errors.incrementAndGet();
            }
          }
          return null;
        }));
      }
      for (Future<?> f : running) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    tally.seconds = (System.nanoTime() - start) / 1e9;
    tally.attackerAnswers = attack == null ? 0 : attack.answered.get() - answersBefore;
    return tally;
  }

  private HttpRequest login(String address) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/login"))
        .timeout(Duration.ofSeconds(30))
        .header("X-Forwarded-For", address)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString("user=ann&password=right"))
        .build();
  }

  /**
   * Waits until every attack connection has sent its headers and two bytes of body, then, with
   * {@code heldOff}, until the attacker's own quick login is refused. Says how it ended.
   */
  private String awaitAttackInPlace(SlowSenders attack, boolean heldOff) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (attack.ticks.get() < 2 || attack.openedOnce.get() < attack.connections()) {
      if (System.nanoTime() > deadline) {
        return "not every connection opened (" + attack.openedOnce.get() + ")";
      }
      Thread.sleep(50);
    }
    if (!heldOff) {
      return "every connection open";
    }
    while (true) {
      int status;
      try {
        status = http.send(login(SlowSenders.ATTACKER), HttpResponse.BodyHandlers.discarding()).statusCode();
      } catch (IOException e) {
        status = -1;
      }
      if (status != 200) {
        return "the attacker's own login refused (" + status + ")";
      }
      if (System.nanoTime() > deadline) {
        return "the attacker's own login still passes after 60 s";
      }
      Thread.sleep(50);
    }
  }
}
