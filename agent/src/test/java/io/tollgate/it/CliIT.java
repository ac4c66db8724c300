package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code java -jar tollgate-agent.jar ...} as an operator runs it. */
class CliIT {

  @TempDir Path dir;

  static final class Result {
    final int exitCode;
    final String out;
    final String err;

    Result(int exitCode, String out, String err) {
      this.exitCode = exitCode;
      this.out = out;
      this.err = err;
    }
  }

  static Result run(String... args) throws IOException, InterruptedException {
    return runWith(List.of(), args);
  }

  /** As {@link #run}, with {@code jvmOptions} before {@code -jar}. */
  static Result runWith(List<String> jvmOptions, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Jdk.current().javaExecutable());
    command.addAll(jvmOptions);
    command.add("-jar");
    command.add(TestPaths.agentJar().getAbsolutePath());
    command.addAll(Arrays.asList(args));
    Process process = new ProcessBuilder(command).start();
    process.getOutputStream().close();
    byte[] out = process.getInputStream().readAllBytes();
    byte[] err = process.getErrorStream().readAllBytes();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    return new Result(process.exitValue(), new String(out, StandardCharsets.UTF_8),
        new String(err, StandardCharsets.UTF_8));
  }

  @Test
  void versionAndHelp() throws Exception {
    Result version = run("--version");
    assertEquals(0, version.exitCode);
    assertTrue(version.out.startsWith("Tollgate "), version.out);

    Result help = run("--help");
    assertEquals(0, help.exitCode);
    assertTrue(help.out.contains("attach PID"), help.out);
    assertTrue(help.out.contains("validate"), help.out);
  }

  @Test
  void attachToAProcessThatDoesNotExistSaysSo() throws Exception {
    long pid = 4_000_000_000L; // beyond any pid_max
    Result result = run("attach", Long.toString(pid), "config=" + RulesFiles.helloPerIp(dir, 5));
    assertEquals(1, result.exitCode, result.err);
    assertTrue(result.err.contains("no process with id " + pid), result.err);
  }

  @Test
  void attachWithAMistypedOptionSaysWhichOptionsThereAre() throws Exception {
    Result result = run("attach", Long.toString(ProcessHandle.current().pid()), "debgu=true");
    assertEquals(2, result.exitCode, result.err);
    assertTrue(result.err.contains("unknown option 'debgu'") && result.err.contains("debug"),
        result.err);
  }

  @Test
  void validateWarnsAboutTrustingEveryAddressButPassesTheFile() throws Exception {
    Path rules = RulesFiles.write(dir, "open.yaml",
        "client-ip:",
        "  trusted-proxies: [0.0.0.0/0]",
        "rules: []");
    Result result = run("validate", rules.toString());
    assertEquals(0, result.exitCode, result.err);
    assertTrue(result.err.contains("trusts every address"), result.err);
  }

  @Test
  void validateWarnsWhenASkipOrMatchRestsOnlyOnAHeaderButPassesTheFile() throws Exception {
    Path rules = RulesFiles.write(dir, "forgeable.yaml",
        "rules:",
        "  - name: everything",
        "    limit: 100",
        "    period: 1m",
        "    skip:",
        "      headers: { X-Internal: present }",
        "  - name: health-checks",
        "    limit: 100",
        "    period: 1m",
        "    skip: { path: /health, headers: { User-Agent: \"ELB-HealthChecker/*\" } }",
        "  - name: partners",
        "    match:",
        "      headers: { X-Partner: present }",
        "    limit: 100",
        "    period: 1m");
    Result result = run("validate", rules.toString());
    assertEquals(0, result.exitCode, result.err);
    assertTrue(result.err.contains("line 6, column 1: rule 'everything': skip rests only on the"
        + " header x-internal: present, which any client can send"), result.err);
    assertTrue(result.err.contains("line 13, column 1: rule 'partners': match rests only on the"
        + " header x-partner: present"), result.err);
    assertFalse(result.err.contains("health-checks"), result.err); // a forger skips /health only
  }

  @Test
  void validateRefusesAPathGlobThatCanNeverMatchNamingItsNormalForm() throws Exception {
    Path rules = RulesFiles.write(dir, "trailing.yaml",
        "rules:",
        "  - name: login",
        "    match: { path: /login/ }",
        "    limit: 5",
        "    period: 1m");
    Result result = run("validate", rules.toString());
    assertEquals(1, result.exitCode, result.err);
    assertTrue(result.err.contains("line 3")
        && result.err.contains("match.path '/login/' can never match")
        && result.err.contains("where it is '/login'"), result.err);
  }

  @Test
  void validateSaysWhenALoginRuleNormalisesItsKeys() throws Exception {
    Path rules = RulesFiles.write(dir, "login.yaml",
        "rules:",
        "  - name: login-failures",
        "    match: { path: /login, methods: [POST] }",
        "    key: [ip, param:username]",
        "    count-when: [401, 403]",
        "    limit: 5",
        "    period: 15m",
        "  - name: search",
        "    key: param:q",
        "    limit: 5",
        "    period: 1m");
    Result result = run("validate", rules.toString());
    assertEquals(0, result.exitCode, result.err);
    assertTrue(result.out.contains("line 4: rule 'login-failures': key values are normalised"),
        result.out);
    assertFalse(result.out.contains("'search'"), result.out);
  }

  @Test
  void validateOnADirectoryIsAUsageError() throws Exception {
    Result result = run("validate", dir.toString());
    assertEquals(2, result.exitCode, result.err);
    assertTrue(result.err.contains("is a directory"), result.err);
  }

  /**
   * A long file is validated with C1 only ({@code QuickCompiles}), through the JVM's diagnostic
   * command itself, which the jar's {@code Add-Opens} opens: the platform MBean server, ~0.25 s of
   * CPU and ~300 classes, is not started.
   */
  @Test
  void validateOfALongFileExcludesC2WithoutStartingTheMBeanServer() throws Exception {
    StringBuilder yaml = new StringBuilder("rules:\n");
    int rules = 3_000; // ~300 KiB, above QuickCompiles.LONG_FILE_BYTES
    for (int i = 1; i <= rules; i++) {
      yaml.append("  - name: tenant-").append(i).append("\n    match:\n      path: /tenants/t")
          .append(i).append("/**\n    key: ip\n    limit: 100\n    period: 1m\n");
    }
    Path file = RulesFiles.write(dir, "long.yaml", yaml.toString());
    Path classes = dir.resolve("classes.log");
    Result result = runWith(List.of("-Xlog:class+load=info:file=" + classes), "validate",
        file.toString());
    assertEquals(0, result.exitCode, result.err);
    assertTrue(result.out.contains("valid, 3000 rules"), result.out);
    String loaded = java.nio.file.Files.readString(classes);
    assertTrue(loaded.contains("com.sun.management.internal.DiagnosticCommandImpl "),
        "the diagnostic command was reached");
    assertFalse(loaded.contains("com.sun.jmx.mbeanserver.JmxMBeanServer "),
        "the platform MBean server was started");
  }

  @Test
  void validateAcceptsAGoodFile() throws Exception {
    Path rules = RulesFiles.helloPerIp(dir, 5);
    Result result = run("validate", rules.toString());
    assertEquals(0, result.exitCode, result.err);
    assertTrue(result.out.contains("valid, 1 rule"), result.out);
  }

  @Test
  void validateRejectsABadFileNamingTheFileAndLine() throws Exception {
    Path rules =
        RulesFiles.write(
            dir,
            "bad.yaml",
            "rules:",
            "  - name: hello",
            "    match:",
            "      path: /hello",
            "    limit: 5",
            "    perod: 1m");
    Result result = run("validate", rules.toString());
    assertEquals(1, result.exitCode);
    assertTrue(result.err.contains(rules.toString()), result.err);
    assertTrue(result.err.contains("line 6"), result.err);
    assertTrue(result.err.contains("period"), "did-you-mean hint: " + result.err);
  }

  @Test
  void unknownCommandIsAUsageError() throws Exception {
    Result result = run("frobnicate");
    assertEquals(2, result.exitCode);
    assertTrue(result.err.contains("unknown command"), result.err);
  }
}
