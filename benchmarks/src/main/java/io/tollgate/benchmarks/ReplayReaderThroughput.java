package io.tollgate.benchmarks;

import io.tollgate.replay.log.AccessLogFiles;
import io.tollgate.replay.log.LogReadOptions;
import io.tollgate.replay.log.LoggedRequest;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;
import org.yaml.snakeyaml.Yaml;

/**
 * Throughput of the access-log readers of {@code replay} (io.tollgate.replay.log): lines per second
 * through {@link AccessLogFiles}, from the file to {@link LoggedRequest}s, for a generated nginx
 * combined log (with a trailing X-Forwarded-For field, a few per cent of lines up to 2 s out of
 * order), the same gzip-compressed, the same split into two interleaved files, and an nginx JSON
 * log. Also snakeyaml parsing the same JSON lines, the alternative to the hand-written JSON reader.
 * Not a JMH benchmark: a plain program, meant for one core,
 *
 * <pre>
 * taskset -c 0 java -Xms1g -Xmx1g -cp benchmarks/target/benchmarks.jar \
 *     io.tollgate.benchmarks.ReplayReaderThroughput lines=1000000 rounds=5 dir=/tmp/replay-bench
 * </pre>
 *
 * <p>The logs are generated into {@code dir} once (kept for the next run; about 230 MB for a
 * million lines of each). Each round reads each file whole; the best and the median round are
 * printed. The first round includes the JIT's warm-up.
 */
public final class ReplayReaderThroughput {

  private static final DateTimeFormatter NCSA =
      DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT).withZone(ZoneOffset.UTC);
  private static final String[] PATHS = {
    "/hello", "/api/orders/", "/api/search?q=", "/login", "/static/app.js", "/static/logo.png",
    "/health", "/api/export?format=csv", "/"
  };
  private static final String[] AGENTS = {
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
    "curl/8.5.0", "kube-probe/1.29", "python-requests/2.32.3",
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
  };

  private ReplayReaderThroughput() {}

  public static void main(String[] args) throws IOException {
    int lines = 1_000_000;
    int rounds = 5;
    Path dir = Paths.get(System.getProperty("java.io.tmpdir"), "replay-bench");
    for (String arg : args) {
      String[] kv = arg.split("=", 2);
      switch (kv[0]) {
        case "lines" -> lines = Integer.parseInt(kv[1]);
        case "rounds" -> rounds = Integer.parseInt(kv[1]);
        case "dir" -> dir = Paths.get(kv[1]);
        default -> throw new IllegalArgumentException("unknown argument " + arg);
      }
    }
    System.out.printf("JVM %s %s, %d processor(s) available, max heap %d MiB, load average %.2f%n",
        System.getProperty("java.vm.name"), Runtime.version(),
        Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20,
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    Files.createDirectories(dir);
    Path combined = dir.resolve("combined-" + lines + ".log");
    Path gzip = dir.resolve("combined-" + lines + ".log.gz");
    Path half1 = dir.resolve("combined-" + lines + "-a.log");
    Path half2 = dir.resolve("combined-" + lines + "-b.log");
    Path json = dir.resolve("nginx-json-" + lines + ".log");
    generate(lines, combined, gzip, half1, half2, json);

    measure("combined", List.of(combined), lines, rounds);
    measure("combined.gz", List.of(gzip), lines, rounds);
    measure("combined, 2 files merged", List.of(half1, half2), lines, rounds);
    measure("nginx json", List.of(json), lines, rounds);
    snakeyaml(json, Math.min(lines, 200_000), rounds);
  }

  private static void measure(String name, List<Path> files, int lines, int rounds)
      throws IOException {
    long bytes = 0;
    for (Path f : files) {
      bytes += Files.size(f);
    }
    double[] rates = new double[rounds];
    double[] cpuRates = new double[rounds];
    for (int round = 0; round < rounds; round++) {
      long start = System.nanoTime();
      long cpuStart = processCpuNanos();
      long count = 0;
      long checksum = 0;
      try (AccessLogFiles logs = AccessLogFiles.open(files, new LogReadOptions())) {
        for (LoggedRequest r; (r = logs.next()) != null; ) {
          count++;
          checksum += r.path.length() + r.status;
        }
        if (count != lines || logs.problems().count() != 0) {
          throw new IllegalStateException(name + ": read " + count + " of " + lines + ", "
              + logs.problems().count() + " unparsed: " + logs.problems().examples());
        }
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      double cpuSeconds = (processCpuNanos() - cpuStart) / 1e9;
      rates[round] = count / seconds;
      cpuRates[round] = count / cpuSeconds;
      System.out.printf(Locale.ROOT, "%-26s round %d: %,10.0f lines/s  %6.1f MB/s (file)  "
              + "%,10.0f lines per CPU-second  [%d]%n",
          name, round + 1, rates[round], bytes / 1e6 / seconds, cpuRates[round], checksum % 10);
    }
    summary(name, rates, bytes / (double) lines);
    summary(name + " (CPU)", cpuRates, 0);
  }

  /** snakeyaml's load() of each line (JSON is YAML), from Strings in memory: parsing only. */
  private static void snakeyaml(Path json, int lines, int rounds) throws IOException {
    List<String> text = new ArrayList<>(lines);
    try (var reader = Files.newBufferedReader(json)) {
      for (String line; text.size() < lines && (line = reader.readLine()) != null; ) {
        text.add(line);
      }
    }
    double[] rates = new double[rounds];
    double[] cpuRates = new double[rounds];
    for (int round = 0; round < rounds; round++) {
      Yaml yaml = new Yaml();
      long start = System.nanoTime();
      long cpuStart = processCpuNanos();
      long checksum = 0;
      for (String line : text) {
        Map<?, ?> map = yaml.load(line);
        checksum += map.size();
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      rates[round] = text.size() / seconds;
      cpuRates[round] = text.size() / ((processCpuNanos() - cpuStart) / 1e9);
      System.out.printf(Locale.ROOT, "%-26s round %d: %,10.0f lines/s  %,10.0f lines per CPU-second  [%d]%n",
          "snakeyaml load (parse only)", round + 1, rates[round], cpuRates[round], checksum % 10);
    }
    summary("snakeyaml load (parse only)", rates, 0);
    summary("snakeyaml load (CPU)", cpuRates, 0);
  }

  /** CPU time of the whole process (the reading thread, GC and JIT): the rate a busy machine hides. */
  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
            ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  private static void summary(String name, double[] rates, double bytesPerLine) {
    double[] sorted = rates.clone();
    Arrays.sort(sorted);
    System.out.printf(Locale.ROOT, "%-26s best %,10.0f lines/s, median %,10.0f lines/s%s%n%n",
        name, sorted[sorted.length - 1], sorted[sorted.length / 2],
        bytesPerLine > 0 ? String.format(Locale.ROOT, " (%.0f bytes a line)", bytesPerLine) : "");
  }

  /**
   * A log of {@code lines} requests at about 300 a second from 20,000 clients, written in
   * completion order: 3% of lines are up to 2 s late.
   */
  private static void generate(int lines, Path combined, Path gzip, Path half1, Path half2,
      Path json) throws IOException {
    if (Files.exists(combined) && Files.exists(gzip) && Files.exists(half1)
        && Files.exists(half2) && Files.exists(json)) {
      return;
    }
    System.out.println("generating " + lines + " lines of each log...");
    SplittableRandom random = new SplittableRandom(42);
    long start = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
    try (Writer c = writer(Files.newOutputStream(combined));
        Writer g = writer(new GZIPOutputStream(Files.newOutputStream(gzip), 1 << 16));
        Writer a = writer(Files.newOutputStream(half1));
        Writer b = writer(Files.newOutputStream(half2));
        Writer j = writer(Files.newOutputStream(json))) {
      for (int i = 0; i < lines; i++) {
        long millis = start + i * 1000L / 300;
        if (random.nextInt(100) < 3) {
          millis -= random.nextInt(2000);
        }
        int clientNumber = random.nextInt(20_000);
        String client = clientNumber % 10 == 0
            ? "2001:db8:" + Integer.toHexString(clientNumber) + "::1"
            : "10." + (clientNumber >> 16) + "." + ((clientNumber >> 8) & 255) + "." + (clientNumber & 255);
        String path = PATHS[random.nextInt(PATHS.length)];
        if (path.endsWith("/")) {
          path += random.nextInt(100_000);
        } else if (path.endsWith("=")) {
          path += "term" + random.nextInt(1000);
        }
        String method = path.equals("/login") ? "POST" : "GET";
        int status = random.nextInt(100) < 5 ? 429 : (method.equals("POST") ? 302 : 200);
        int size = random.nextInt(20_000);
        String agent = AGENTS[random.nextInt(AGENTS.length)];
        String forwarded = random.nextBoolean() ? "203.0.113." + random.nextInt(256) : "-";
        String time = NCSA.format(Instant.ofEpochMilli(millis));
        String line = client + " - - [" + time + "] \"" + method + " " + path + " HTTP/1.1\" "
            + status + " " + size + " \"https://shop.example/\" \"" + agent + "\" \"" + forwarded
            + "\"\n";
        c.write(line);
        g.write(line);
        (i % 2 == 0 ? a : b).write(line);
        j.write("{\"time_iso8601\":\"" + Instant.ofEpochMilli(millis).toString()
            + "\",\"remote_addr\":\"" + client + "\",\"remote_user\":\"\",\"request\":\"" + method
            + " " + path + " HTTP/1.1\",\"status\":\"" + status + "\",\"body_bytes_sent\":\"" + size
            + "\",\"request_time\":\"0.004\",\"http_referer\":\"https://shop.example/\","
            + "\"http_user_agent\":\"" + agent + "\",\"http_x_forwarded_for\":\""
            + (forwarded.equals("-") ? "" : forwarded) + "\"}\n");
      }
    }
  }

  private static Writer writer(OutputStream out) {
    return new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
  }
}
