// Writes the gzip logs of run-replay.sh's burst row (issue 28 row 6), the shapes that once took
// a replay past its memory or kept it from stopping, as ReplayLimitsIT writes them:
//
//   java benchmarks/replay/GenerateBurstLogs.java burst LINES FILE.gz
//       LINES NCSA combined lines all stamped with one second (10:00:07), from 50,000 clients
//       over 1,000 paths under /api/items/: a reorder window of 5 s would hold them all
//   java benchmarks/replay/GenerateBurstLogs.java long-line MEGABYTES FILE.gz
//       one request line, then one line of MEGABYTES MiB of 'x' (a few MB of gzip for GBs of
//       line), then one more request line
//
// Run as a single-file program (Java 11+); the same arguments always give the same bytes.
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;

public class GenerateBurstLogs {

  /** An NCSA combined line of {@code client} at 10:00:{@code second}. */
  static String line(String client, int second, String path) {
    return client + " - - [30/Nov/2026:10:00:" + String.format("%02d", second)
        + " +0000] \"GET " + path + " HTTP/1.1\" 200 512 \"-\" \"curl/8.5\"\n";
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 3 || !(args[0].equals("burst") || args[0].equals("long-line"))) {
      System.err.println("usage: java GenerateBurstLogs.java burst LINES FILE.gz"
          + " | long-line MEGABYTES FILE.gz");
      System.exit(2);
    }
    long n = Long.parseLong(args[1]);
    try (OutputStream gz = new GZIPOutputStream(Files.newOutputStream(Paths.get(args[2])),
        1 << 16)) {
      if (args[0].equals("burst")) {
        Writer w = new OutputStreamWriter(gz, StandardCharsets.US_ASCII);
        for (long i = 0; i < n; i++) {
          int client = (int) (i % 50_000);
          w.write(line("10." + (client >> 16) + "." + ((client >> 8) & 255) + "." + (client & 255),
              7, "/api/items/" + (i % 1_000)));
        }
        w.flush();
      } else {
        gz.write(line("192.0.2.1", 1, "/api/a").getBytes(StandardCharsets.US_ASCII));
        byte[] chunk = new byte[1 << 20];
        Arrays.fill(chunk, (byte) 'x');
        for (long i = 0; i < n; i++) {
          gz.write(chunk);
        }
        gz.write('\n');
        gz.write(line("192.0.2.2", 2, "/api/b").getBytes(StandardCharsets.US_ASCII));
      }
    }
  }
}
