package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The 1 MB user-name flood of issue 27 on servlet-jakarta at {@code -Xmx256m}, with the rule of
 * {@code login-bruteforce.yaml}: each request's distinct {@code username} is a key of its own, and
 * was kept whole (150 requests held 153 MB; at 350 the heap was full). Now every key part over 64
 * bytes is stored as its hash: the live heap after a full GC is the same after 400 such requests as
 * before them, and the rule still counts each name.
 */
class KeyMemoryIT {

  static final int FLOOD = 400;
  static final int NAME_BYTES = 1 << 20;
  /** What the heap may grow by over the flood: noise of caches and compiled code, not 400 MB. */
  static final long GROWTH_ALLOWED_KB = 24 * 1024;

  @TempDir Path dir;

  @Test
  void aFloodOfMegabyteUserNamesLeavesTheHeapFlat() throws Exception {
    Path rules = RulesFiles.write(dir, "rules.yaml",
        "rules:",
        "  - name: login-failures",
        "    match: { path: /login, methods: [POST] }",
        "    key: [ip, param:username]",
        "    count-when: [401, 403]",
        "    algorithm: sliding-log",
        "    limit: 5",
        "    period: 15m",
        "    quota-headers: false");
    try (ForkedApp app = ForkedApp.app("servlet-jakarta").on(Jdk.current())
        .withAgent("config=" + rules).jvmOption("-Xmx256m").start()) {
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(20)).build();
      // warm up: the app, the agent and the rule's caches as they are after some logins
      for (int i = 0; i < 20; i++) {
        assertEquals(401, login(http, app, hugeName(-1 - i)).statusCode());
      }
      long before = heapUsedAfterFullGcKb(app);
      for (int i = 0; i < FLOOD; i++) {
        HttpResponse<String> r = login(http, app, hugeName(i));
        assertEquals(401, r.statusCode(), "request #" + (i + 1) + ": " + r.body());
      }
      long after = heapUsedAfterFullGcKb(app);
      System.out.println("KeyMemoryIT: " + FLOOD + " POSTs with a distinct " + NAME_BYTES
          + "-byte username: heap used after full GC " + before + " KB before, " + after
          + " KB after (" + (after - before) + " KB)");
      assertTrue(after - before < GROWTH_ALLOWED_KB,
          "the heap grew by " + (after - before) + " KB over the flood (" + before + " KB to "
              + after + " KB)");
      // the names are still counted, each by its hash: the sixth failure for one name is refused
      List<Integer> statuses = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        statuses.add(login(http, app, hugeName(7)).statusCode());
      }
      assertEquals(Arrays.asList(401, 401, 401, 401, 429, 429), statuses.subList(0, 6),
          "name #7 failed once in the flood: 4 more failures, then refusals");
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  /**
   * A distinct user name of {@link #NAME_BYTES} bytes: its number, then capitals, so that the
   * rule's key normalisation (on for this login rule) has the whole name to fold, not only to hash.
   */
  static byte[] hugeName(int n) {
    byte[] name = new byte[NAME_BYTES];
    Arrays.fill(name, (byte) 'A');
    byte[] number = (n + "-").getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(number, 0, name, 0, number.length);
    return name;
  }

  static HttpResponse<String> login(HttpClient http, ForkedApp app, byte[] name)
      throws IOException, InterruptedException {
    byte[] head = "username=".getBytes(StandardCharsets.US_ASCII);
    byte[] tail = "&password=wrong".getBytes(StandardCharsets.US_ASCII);
    byte[] body = new byte[head.length + name.length + tail.length];
    System.arraycopy(head, 0, body, 0, head.length);
    System.arraycopy(name, 0, body, head.length, name.length);
    System.arraycopy(tail, 0, body, head.length + name.length, tail.length);
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + "/login"))
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  /** The app's live heap: {@code jcmd GC.run} (a full GC), then the used size GC.heap_info shows. */
  static long heapUsedAfterFullGcKb(ForkedApp app) throws IOException, InterruptedException {
    jcmd(app, "GC.run");
    String info = jcmd(app, "GC.heap_info");
    Matcher used = Pattern.compile("used (\\d+)K").matcher(info);
    assertTrue(used.find(), info);
    return Long.parseLong(used.group(1));
  }

  private static String jcmd(ForkedApp app, String command)
      throws IOException, InterruptedException {
    String jcmd = Jdk.current().home().toPath().resolve("bin/jcmd").toString();
    Process p = new ProcessBuilder(jcmd, Long.toString(app.pid()), command)
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(2, TimeUnit.MINUTES), "jcmd " + command + " did not end");
    assertEquals(0, p.exitValue(), "jcmd " + command + ": " + out);
    return out;
  }
}
