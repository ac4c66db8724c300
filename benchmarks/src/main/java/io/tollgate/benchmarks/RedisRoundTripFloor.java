package io.tollgate.benchmarks;

import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
import io.tollgate.stores.redis.RedisBackend;
import io.tollgate.stores.redis.RedisConnectionSettings;
import io.tollgate.stores.redis.RedisGcraStore;
import io.tollgate.stores.redis.RedisScript;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The floor under Redis mode: what one decision's round trip costs this JVM when a request thread
 * writes the very {@code EVALSHA} Tollgate sends on a plain blocking socket and reads the reply
 * itself (no event loop, no hand-off between threads), beside the same decision through Tollgate's
 * {@link RedisGcraStore} on its {@link RedisBackend} (Lettuce: the request thread hands the command
 * to the client's I/O thread, which writes it, reads the reply and wakes the request thread).
 *
 * <p>One caller thread, one hot key that never refuses, the two sides alternating in rounds in
 * one JVM. Per decision: wall time, this JVM's CPU time (every thread: the I/O thread, the JIT and
 * the GC included) and its context switches (from {@code /proc/self/task/}*{@code /status}).
 * The difference between the sides is what the client library and its hand-offs cost beyond a
 * round trip that any Java client pays. The command is taken from {@code MONITOR} during one
 * decision of the store, so the socket sends the same bytes Redis sees from Tollgate.
 *
 * <p>Run by {@code benchmarks/redis-floor.sh} (the JVM pinned to one core, Redis to the other).
 * Arguments {@code name=value}: {@code host} (127.0.0.1), {@code port} (6379), {@code rounds}
 * (3), {@code seconds} (5 per side and round), {@code warmup} (5 seconds per side, first).
 */
public final class RedisRoundTripFloor {

  public static void main(String[] args) throws Exception {
    String host = "127.0.0.1";
    int port = 6379;
    int rounds = 3;
    double seconds = 5;
    double warmup = 5;
    for (String arg : args) {
      String[] kv = arg.split("=", 2);
      switch (kv[0]) {
        case "host" -> host = kv[1];
        case "port" -> port = Integer.parseInt(kv[1]);
        case "rounds" -> rounds = Integer.parseInt(kv[1]);
        case "seconds" -> seconds = Double.parseDouble(kv[1]);
        case "warmup" -> warmup = Double.parseDouble(kv[1]);
        default -> throw new IllegalArgumentException("unknown argument " + arg);
      }
    }
    String uri = "redis://" + host + ":" + port;
    RedisBackend backend =
        RedisBackend.connect(RedisConnectionSettings.uri(uri).withTimeout(Duration.ofSeconds(2)));
    if (!backend.awaitConnected(Duration.ofSeconds(10))) {
      throw new IllegalStateException("no connection to " + uri);
    }
    RedisGcraStore store =
        new RedisGcraStore(backend, RedisThroughputDriver.RULE_ALLOWING,
            new TokenBucket(RedisThroughputDriver.NEVER_REFUSES));
    Verdict verdict = new Verdict();
    byte[] command = capture(host, port, () -> store.decide("hot", 1, verdict));
    System.out.println("# the command, as Tollgate sends it: "
        + new String(command, StandardCharsets.UTF_8).replace("\r\n", " ").trim());

    try (Socket socket = new Socket(host, port)) {
      socket.setTcpNoDelay(true);
      OutputStream out = socket.getOutputStream();
      InputStream in = new BufferedInputStream(socket.getInputStream());
      Runnable bySocket = () -> {
        try {
          out.write(command);
          out.flush();
          readReply(in);
        } catch (IOException e) {
          throw new IllegalStateException(e);
        }
      };
      Runnable byTollgate = () -> {
        store.decide("hot", 1, verdict);
        if (!verdict.allowed) {
          throw new IllegalStateException("refused: the bucket never refuses");
        }
      };
      measure(bySocket, warmup);
      measure(byTollgate, warmup);
      System.out.println("side     round  decisions  wall us/decision  JVM CPU us/decision"
          + "  context switches/decision");
      for (int r = 1; r <= rounds; r++) {
        // alternate which side goes first
        boolean socketFirst = r % 2 == 1;
        for (int s = 0; s < 2; s++) {
          boolean socketSide = (s == 0) == socketFirst;
          Result result = measure(socketSide ? bySocket : byTollgate, seconds);
          System.out.printf(Locale.ROOT, "RESULT side=%s round=%d decisions=%d wall_us=%.2f"
                  + " cpu_us=%.2f switches=%.3f%n",
              socketSide ? "socket" : "tollgate", r, result.decisions, result.wallUs(),
              result.cpuUs(), result.switchesPerDecision());
        }
      }
    } finally {
      backend.close();
    }
  }

  record Result(long decisions, long wallNanos, long cpuNanos, long switches) {
    double wallUs() {
      return wallNanos / 1e3 / decisions;
    }

    double cpuUs() {
      return cpuNanos / 1e3 / decisions;
    }

    double switchesPerDecision() {
      return (double) switches / decisions;
    }
  }

  static Result measure(Runnable decision, double seconds) throws IOException {
    long end = System.nanoTime() + (long) (seconds * 1e9);
    long cpu0 = processCpuNanos();
    long switches0 = contextSwitches();
    long start = System.nanoTime();
    long decisions = 0;
    long now;
    do {
      for (int i = 0; i < 100; i++) {
        decision.run();
      }
      decisions += 100;
      now = System.nanoTime();
    } while (now - end < 0);
    return new Result(decisions, now - start, processCpuNanos() - cpu0,
        contextSwitches() - switches0);
  }

  /** The command Redis receives while {@code decision} runs, re-encoded in RESP from MONITOR's line. */
  static byte[] capture(String host, int port, Runnable decision) throws IOException {
    try (Socket monitor = new Socket(host, port)) {
      OutputStream out = monitor.getOutputStream();
      InputStream in = new BufferedInputStream(monitor.getInputStream());
      out.write("MONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      readLine(in); // +OK
      decision.run();
      while (true) {
        String line = readLine(in);
        if (line.contains("\"EVALSHA\"") || line.contains("\"evalsha\"")) {
          List<String> parts = monitorArgs(line);
          ByteArrayOutputStream resp = new ByteArrayOutputStream();
          resp.write(("*" + parts.size() + "\r\n").getBytes(StandardCharsets.US_ASCII));
          for (String part : parts) {
            byte[] bytes = part.getBytes(StandardCharsets.ISO_8859_1);
            resp.write(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            resp.write(bytes);
            resp.write("\r\n".getBytes(StandardCharsets.US_ASCII));
          }
          return resp.toByteArray();
        }
      }
    }
  }

  /** MONITOR's quoted arguments, unescaped (\\xHH, \\", \\\\, \\n, \\r, \\t) as bytes in chars. */
  static List<String> monitorArgs(String line) {
    List<String> args = new ArrayList<>();
    int i = line.indexOf('"', line.indexOf(']'));
    while (i >= 0 && i < line.length()) {
      StringBuilder arg = new StringBuilder();
      int j = i + 1;
      while (line.charAt(j) != '"') {
        char c = line.charAt(j);
        if (c == '\\') {
          char e = line.charAt(j + 1);
          switch (e) {
            case 'x' -> {
              arg.append((char) Integer.parseInt(line.substring(j + 2, j + 4), 16));
              j += 2;
            }
            case 'n' -> arg.append('\n');
            case 'r' -> arg.append('\r');
            case 't' -> arg.append('\t');
            default -> arg.append(e);
          }
          j += 2;
        } else {
          arg.append(c);
          j++;
        }
      }
      args.add(arg.toString());
      i = line.indexOf('"', j + 1);
    }
    return args;
  }

  /** Reads one RESP reply of any shape. */
  static void readReply(InputStream in) throws IOException {
    String line = readLine(in);
    switch (line.charAt(0)) {
      case '+', ':' -> { }
      case '-' -> throw new IllegalStateException("error reply: " + line);
      case '$' -> {
        int length = Integer.parseInt(line.substring(1));
        if (length >= 0) {
          in.readNBytes(length + 2);
        }
      }
      case '*' -> {
        int count = Integer.parseInt(line.substring(1));
        for (int k = 0; k < count; k++) {
          readReply(in);
        }
      }
      default -> throw new IllegalStateException("unexpected reply: " + line);
    }
  }

  static String readLine(InputStream in) throws IOException {
    StringBuilder line = new StringBuilder();
    int c;
    while ((c = in.read()) != '\r') {
      if (c < 0) {
        throw new IOException("connection closed");
      }
      line.append((char) c);
    }
    in.read(); // \n
    return line.toString();
  }

  static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
            ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  static long contextSwitches() throws IOException {
    long total = 0;
    try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
      for (Path task : (Iterable<Path>) tasks::iterator) {
        try {
          for (String line : Files.readAllLines(task.resolve("status"))) {
            if (line.startsWith("voluntary_ctxt_switches:")
                || line.startsWith("nonvoluntary_ctxt_switches:")) {
              total += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
          }
        } catch (IOException ended) {
          // a thread that ended meanwhile
        }
      }
    }
    return total;
  }

  private RedisRoundTripFloor() {}

  static {
    // keep RedisScript loaded before measuring (the store's first call loads it too)
    RedisScript.GCRA.sha1();
  }
}
