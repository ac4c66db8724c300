// Writes an access log of known, repeatable traffic for benchmarks/run-replay.sh: the kinds of
// client of the tests' shapes (agent/src/test/java/io/tollgate/replay/TrafficShapes.java: a
// steady client, bursts at a minute's boundary, a scraper over 3 addresses, a partner with one
// API key) at benchmark scale, in a crowd of up to 20,000 clients whose shares fall steeply,
// evenly over six hours from 2026-11-30T00:00:00Z. The tests keep the exact shapes and counts;
// this file only needs volume and a realistic spread of keys.
//
//   java benchmarks/replay/GenerateAccessLog.java combined|json LINES FILE
//
// JSON lines carry X-Api-Key and X-Plan as nginx's $http_x_api_key and $http_x_plan, for the
// api-tiers example; combined lines carry only what NCSA logs do. Run as a single-file program
// (Java 11+); the same arguments always give the same bytes.
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

public class GenerateAccessLog {

  static final long T0 = Instant.parse("2026-11-30T00:00:00Z").toEpochMilli();
  static final long SPAN_MILLIS = 6 * 3600 * 1000L;
  static final int CLIENTS = 20_000;
  static final String[] PATHS = {"/hello", "/api/orders/", "/api/search", "/api/export", "/health"};
  static final DateTimeFormatter NCSA =
      DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT).withZone(ZoneOffset.UTC);
  static final DateTimeFormatter ISO = DateTimeFormatter.ISO_INSTANT;

  public static void main(String[] args) throws IOException {
    if (args.length != 3 || !(args[0].equals("combined") || args[0].equals("json"))) {
      System.err.println("usage: java GenerateAccessLog.java combined|json LINES FILE");
      System.exit(2);
    }
    boolean json = args[0].equals("json");
    long lines = Long.parseLong(args[1]);
    long seed = 42;
    try (BufferedWriter out = Files.newBufferedWriter(Paths.get(args[2]), StandardCharsets.UTF_8)) {
      for (long n = 0; n < lines; n++) {
        long millis = T0 + n * SPAN_MILLIS / lines;
        long second = (millis - T0) / 1000;
        seed = seed * 6364136223846793005L + 1442695040888963407L;
        double u = ((seed >>> 11) & ((1L << 53) - 1)) / (double) (1L << 53);
        String ip;
        String path;
        String agent;
        int client;
        int shape = (int) (n % 100);
        if (shape == 0) { // the scraper: three addresses, one agent, every page of the catalogue
          client = -1;
          ip = "198.51.100." + (1 + n % 3);
          path = "/api/search";
          agent = "scraper/2.1";
        } else if (shape < 4) { // the partner: one address, bursts each tenth second
          client = -2;
          ip = "192.0.2.50";
          path = "/api/orders/" + (n % 1000);
          agent = "partner-sync/3.0";
        } else if (shape == 4 && second % 60 >= 58) { // bursts straddling the minute
          client = -3;
          ip = "203.0.113.20";
          path = "/hello";
          agent = "burst/1.0";
        } else if (shape == 5) { // the steady client
          client = -4;
          ip = "203.0.113.10";
          path = "/hello";
          agent = "steady/1.0";
        } else { // the crowd: client i's share falls with i
          client = (int) (CLIENTS * u * u * u);
          ip = "10." + (client >> 16 & 255) + "." + (client >> 8 & 255) + "." + (client & 255);
          String p = PATHS[(int) ((seed >>> 20) % PATHS.length)];
          path = p.endsWith("/") ? p + ((seed >>> 30) % 5000) : p;
          agent = "Mozilla/5.0 (client " + (client % 300) + ")";
        }
        String apiKey = client == -2 ? "partner-key" : client >= 0 && client % 5 != 0 ? "key-" + client : null;
        String plan = client == -2 || (client >= 0 && client % 10 == 1) ? "pro" : null;
        String query = path.equals("/api/search") ? "q=item" + (n % 97) : null;
        int status = 200;
        out.write(json
            ? jsonLine(millis, ip, path, query, status, agent, apiKey, plan)
            : combinedLine(millis, ip, path, query, status, agent));
        out.write('\n');
      }
    }
  }

  static String combinedLine(long millis, String ip, String path, String query, int status,
      String agent) {
    return ip + " - - [" + NCSA.format(Instant.ofEpochMilli(millis)) + "] \"GET " + path
        + (query == null ? "" : "?" + query) + " HTTP/1.1\" " + status + " 512 \"-\" \""
        + agent + "\"";
  }

  static String jsonLine(long millis, String ip, String path, String query, int status,
      String agent, String apiKey, String plan) {
    return "{\"time\":\"" + ISO.format(Instant.ofEpochMilli(millis)) + "\",\"remote_addr\":\""
        + ip + "\",\"request_method\":\"GET\",\"request_uri\":\"" + path
        + (query == null ? "" : "?" + query) + "\",\"status\":" + status
        + ",\"http_user_agent\":\"" + agent + "\""
        + (apiKey == null ? "" : ",\"http_x_api_key\":\"" + apiKey + "\"")
        + (plan == null ? "" : ",\"http_x_plan\":\"" + plan + "\"") + "}";
  }
}
