package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.testing.Fifos;
import java.io.File;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What can happen to a watched rules file on a bad day: it grows huge, it is replaced by a FIFO,
 * it is deleted. The limits in force stay, the log says what happened once, and nothing in the
 * agent (hot reload, attach) freezes or takes the JVM down.
 */
class RulesFileHazardsIT {

  private static final String APP = "servlet-jakarta";
  private static final Duration ATTACH_TIMEOUT = Duration.ofSeconds(90);

  @TempDir Path dir;

  @Test
  void aHugeFileIsRefusedAndTheRulesInForceStay() throws Exception {
    Path rules = helloPerIpPerHour(3);
    try (ForkedApp app = ForkedApp.app(APP).withAgent("config=" + rules).start()) {
      ItSupport.assertAllowedThenRefused(app, "/hello", 1, 0);

      // 600 MB (sparse, no disk used) under the app's 256 MB heap: read whole, it ended the JVM.
      try (RandomAccessFile file = new RandomAccessFile(rules.toFile(), "rw")) {
        file.setLength(600L * 1024 * 1024);
      }

      String refused = ItSupport.awaitCount(app, "more than the 4194304 bytes (4 MiB)", 1,
          ItSupport.RELOAD_TIMEOUT);
      assertTrue(refused.startsWith("[tollgate] ERROR the rules file " + rules
          + " is 629145600 bytes (600 MiB)"), refused);
      assertTrue(refused.endsWith("the last good rules stay in force (1 rule: hello-per-ip)"),
          refused);
      // Same rule, same counts: two more pass, then refused.
      ItSupport.assertAllowedThenRefused(app, "/hello", 2, 1);
      assertEquals(1, ItSupport.count(app, "ERROR"), String.join("\n", app.agentLog()));
    }
  }

  @Test
  void aFifoFreezesNeitherReloadNorAttach() throws Exception {
    Path rules = helloPerIpPerHour(3);
    try (ForkedApp app = ForkedApp.app(APP).withAgent("config=" + rules).start()) {
      ItSupport.assertAllowedThenRefused(app, "/hello", 1, 0);

      Files.delete(rules);
      Fifos.make(rules);
      String refused = ItSupport.awaitCount(app, "is not a regular file", 1,
          ItSupport.RELOAD_TIMEOUT);
      assertTrue(refused.startsWith("[tollgate] ERROR " + rules + " is not a regular file"),
          refused);

      // An attach meanwhile returns, and applies its rules file.
      Path other = RulesFiles.write(dir, "other.yaml",
          "rules:",
          "  - name: hello-other",
          "    match: { path: /hello }",
          "    key: ip",
          "    limit: 2",
          "    period: 1h");
      List<String> attach = runCli("attach", Long.toString(app.pid()), "config=" + other);
      assertEquals("0", attach.get(0), attach.toString());
      ItSupport.awaitCount(app, "loaded 1 rule: hello-other from " + other, 1,
          ItSupport.RELOAD_TIMEOUT);
      ItSupport.assertAllowedThenRefused(app, "/hello", 2, 1);

      // And hot reload still runs: the attached file's edit is picked up.
      Files.write(other, Files.readString(other).replace("limit: 2", "limit: 5")
          .getBytes(StandardCharsets.UTF_8));
      ItSupport.awaitCount(app, "reloaded 1 rule: hello-other", 1, ItSupport.RELOAD_TIMEOUT);
    }
  }

  @Test
  void aDeletedFileIsReportedOnceAndSoIsItsReturn() throws Exception {
    Path rules = helloPerIpPerHour(3);
    byte[] content = Files.readAllBytes(rules);
    try (ForkedApp app = ForkedApp.app(APP).withAgent("config=" + rules).start()) {
      ItSupport.assertAllowedThenRefused(app, "/hello", 1, 0);

      Files.delete(rules);
      String deleted = ItSupport.awaitCount(app, "does not exist", 1, ItSupport.RELOAD_TIMEOUT);
      assertEquals("[tollgate] ERROR the rules file " + rules + " does not exist; the last good"
          + " rules stay in force (1 rule: hello-per-ip)", deleted);
      ItSupport.assertAllowedThenRefused(app, "/hello", 1, 0);

      Files.write(rules, content);
      String back = ItSupport.awaitCount(app, "can be read again", 1, ItSupport.RELOAD_TIMEOUT);
      assertEquals("[tollgate] the rules file " + rules + " can be read again; it is unchanged;"
          + " the last good rules stay in force (1 rule: hello-per-ip)", back);
      assertEquals(1, ItSupport.count(app, "does not exist"), String.join("\n", app.agentLog()));
      // The counts were kept throughout: the third request passes, the fourth is refused.
      ItSupport.assertAllowedThenRefused(app, "/hello", 1, 1);
    }
  }

  /** A limit that does not refill during a test, however slow the machine. */
  private Path helloPerIpPerHour(int limit) throws Exception {
    return RulesFiles.write(dir, "rules.yaml",
        "rules:",
        "  - name: hello-per-ip",
        "    match: { path: /hello, methods: [GET] }",
        "    key: ip",
        "    limit: " + limit,
        "    period: 1h");
  }

  /** The CLI's exit code and output; fails, rather than hangs, when it does not end. */
  private List<String> runCli(String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Jdk.current().javaExecutable());
    command.add("-jar");
    command.add(TestPaths.agentJar().getAbsolutePath());
    command.addAll(Arrays.asList(args));
    File output = dir.resolve("cli-" + System.nanoTime() + ".txt").toFile();
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output)
        .start();
    try {
      boolean ended = process.waitFor(ATTACH_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      String text = Files.readString(output.toPath());
      assertTrue(ended, "the command did not end within " + ATTACH_TIMEOUT + ": " + text);
      return List.of(Integer.toString(process.exitValue()), text);
    } finally {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
