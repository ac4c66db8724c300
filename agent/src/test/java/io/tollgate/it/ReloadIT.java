package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hot reload as operators do it: an editor writing the file in place, a deploy tool writing a temp
 * file and moving it over the rules file, and a mistake that must not lift the limits.
 */
class ReloadIT {

  private static final String APP = "servlet-jakarta";

  @TempDir Path dir;

  private static String rules(String name, int limit) {
    return String.join(
        "\n",
        "rules:",
        "  - name: " + name,
        "    match:",
        "      path: /hello",
        "      methods: [GET]",
        "    key: ip",
        "    limit: " + limit,
        "    period: 1h",
        "");
  }

  @Test
  void anInPlaceEditIsPickedUpAndTheLogSaysWhatChanged() throws Exception {
    Path file = dir.resolve("rules.yaml");
    Files.write(file, rules("hello-per-ip", 2).getBytes(StandardCharsets.UTF_8));
    try (ForkedApp app = ForkedApp.app(APP).withAgent("config=" + file).start()) {
      ItSupport.assertAllowedThenRefused(app, "/hello", 2, 1);

      // Overwrite the same inode, as editors that save in place do.
      String edited = rules("hello-per-ip", 4)
          + String.join(
              "\n",
              "  - name: api-per-ip",
              "    match:",
              "      path: /api/**",
              "    limit: 100",
              "    period: 1m",
              "");
      Files.write(file, edited.getBytes(StandardCharsets.UTF_8),
          StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);

      String reloaded = ItSupport.awaitCount(app, "reloaded 2 rules", 1, ItSupport.RELOAD_TIMEOUT);
      assertTrue(reloaded.contains("hello-per-ip, api-per-ip") && reloaded.contains(file.toString()),
          reloaded);
      ItSupport.awaitCount(app,
          "rule 'hello-per-ip' changed; what each key had used carries over to its new limits", 1,
          ItSupport.RELOAD_TIMEOUT);
      ItSupport.awaitCount(app, "rule 'api-per-ip' added", 1, ItSupport.RELOAD_TIMEOUT);

      // The new limit of 4, of which the 2 used stay used: 2 more pass.
      ItSupport.assertAllowedThenRefused(app, "/hello", 2, 1);
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  /**
   * An operator tightens a limit while a client keeps sending: what the client had used stays
   * used, so the tighter limit refuses it at once, where a fresh count would hand it the whole new
   * limit again.
   */
  @Test
  void tighteningALimitDuringTrafficHandsNobodyANewBudget() throws Exception {
    Path file = dir.resolve("rules.yaml");
    Files.write(file, rules("hello-per-ip", 10).getBytes(StandardCharsets.UTF_8));
    try (ForkedApp app = ForkedApp.app(APP).withAgent("config=" + file).start()) {
      ItSupport.assertAllowedThenRefused(app, "/hello", 6, 0);

      AtomicInteger allowedDuring = new AtomicInteger();
      AtomicBoolean stop = new AtomicBoolean();
      AtomicReference<Exception> failure = new AtomicReference<>();
      Thread traffic = new Thread(() -> {
        try {
          while (!stop.get()) {
            // each on a connection of its own: thousands back to back (see RawHttp.getStatus)
            if (RawHttp.getStatus(app.port(), "/hello") == 200) {
              allowedDuring.incrementAndGet();
            }
          }
        } catch (Exception e) {
          failure.set(e);
        }
      }, "traffic");
      traffic.start();
      try {
        Files.write(file, rules("hello-per-ip", 5).getBytes(StandardCharsets.UTF_8),
            StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        ItSupport.awaitCount(app,
            "rule 'hello-per-ip' changed; what each key had used carries over to its new limits",
            1, ItSupport.RELOAD_TIMEOUT);
      } finally {
        stop.set(true);
        traffic.join();
      }
      if (failure.get() != null) {
        throw failure.get();
      }
      assertTrue(allowedDuring.get() <= 4,
          "at most the old limit's last 4 during the traffic: " + allowedDuring.get());
      // 6 and more of the 5 used: none left, the same hour.
      ItSupport.assertAllowedThenRefused(app, "/hello", 0, 5);
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  @Test
  void aRenameReplaceIsPickedUp() throws Exception {
    Path file = dir.resolve("rules.yaml");
    Files.write(file, rules("hello-per-ip", 100).getBytes(StandardCharsets.UTF_8));
    try (ForkedApp app = ForkedApp.app(APP).withAgent("config=" + file).start()) {
      ItSupport.assertAllowedThenRefused(app, "/hello", 5, 0);

      // Write elsewhere, then mv over the rules file: a new inode at the same path.
      Path temp = dir.resolve(".rules.yaml.tmp");
      Files.write(temp, rules("hello-strict", 2).getBytes(StandardCharsets.UTF_8));
      Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);

      ItSupport.awaitCount(app, "reloaded 1 rule: hello-strict", 1, ItSupport.RELOAD_TIMEOUT);
      ItSupport.awaitCount(app, "rule 'hello-strict' added", 1, ItSupport.RELOAD_TIMEOUT);
      ItSupport.awaitCount(app, "rule 'hello-per-ip' removed", 1, ItSupport.RELOAD_TIMEOUT);

      ItSupport.assertAllowedThenRefused(app, "/hello", 2, 1);
      assertEquals("hello-strict",
          ItSupport.header(app.get("/hello"), "Tollgate-Rule"));
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  @Test
  void aBrokenFileKeepsTheLastGoodRulesAndNamesThePathAndLine() throws Exception {
    Path file = dir.resolve("rules.yaml");
    Files.write(file, rules("hello-per-ip", 3).getBytes(StandardCharsets.UTF_8));
    try (ForkedApp app = ForkedApp.app(APP).withAgent("config=" + file).start()) {
      ItSupport.assertAllowedThenRefused(app, "/hello", 2, 0);

      // A YAML error on line 5: an unclosed flow sequence.
      String broken = String.join(
          "\n",
          "rules:",
          "  - name: hello-per-ip",
          "    match:",
          "      path: /hello",
          "      methods: [GET",
          "    limit: 1000",
          "    period: 1h",
          "");
      Files.write(file, broken.getBytes(StandardCharsets.UTF_8),
          StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);

      String notApplied = ItSupport.awaitCount(app, "was not applied", 1, ItSupport.RELOAD_TIMEOUT);
      assertTrue(notApplied.contains(file.toString()), notApplied);
      assertTrue(notApplied.contains("the last good rules stay in force"), notApplied);
      String problem = app.agentLog().stream()
          .filter(l -> l.contains("ERROR") && l.contains(file + ": line "))
          .findFirst()
          .orElseThrow(() -> new AssertionError("no problem line naming " + file + " and its line:\n"
              + String.join("\n", app.agentLog())));
      assertTrue(problem.matches(".*: line [56], column \\d+: .*"), problem);

      // The old limit of 3 still applies: one more passes, then refused.
      ItSupport.assertAllowedThenRefused(app, "/hello", 1, 2);
      assertEquals(0, ItSupport.count(app, "reloaded"), "the broken file was never applied");

      // Fixing the file puts it in force again.
      Files.write(file, rules("hello-per-ip", 3).replace("1h", "2h").getBytes(StandardCharsets.UTF_8),
          StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
      ItSupport.awaitCount(app, "reloaded 1 rule: hello-per-ip", 1, ItSupport.RELOAD_TIMEOUT);
    }
  }
}
