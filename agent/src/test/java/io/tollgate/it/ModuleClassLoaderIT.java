package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The servlet app (embedded Tomcat) run inside a class loader that, like JBoss Modules' and OSGi's,
 * shows its classes only the JDK and its own jar, not the bootstrap class path where the bridge
 * is ({@link ModuleLikeClassLoader}). The agent's woven {@code loadClass} shows it the bridge, with
 * {@code -javaagent} and after {@code attach}: the rule refuses at its limit. Where the loader
 * cannot be woven (its class is on the bootstrap class path), no request fails: each passes, and
 * one error names the loader and the fix. Before the agent wove class loaders, every request to
 * such an app answered 500 ({@code NoClassDefFoundError: io/tollgate/bootstrap/TollgateBridge}).
 */
class ModuleClassLoaderIT {

  private static final String APP = "servlet-jakarta";
  private static final String MAIN = "io.tollgate.testapps.servlet_jakarta.Main";
  private static final Duration TIMEOUT = Duration.ofSeconds(90);

  @TempDir Path dir;

  @Test
  void withTheAgentAtStartTheModulesServletsReachTheBridgeAndAreRefusedAtTheLimit()
      throws Exception {
    Path rules = RulesFiles.helloPerIp(dir, 5);
    try (ModuleApp app = ModuleApp.start(List.of(agentOption("config=" + rules)))) {
      assertEquals(List.of(200, 200, 200, 200, 200, 429, 429), app.statuses("/hello", 7),
          app.describe());
      app.assertNoErrors();
    }
  }

  @Test
  void attachedToARunningAppTheModulesServletsReachTheBridgeAndAreRefusedAtTheLimit()
      throws Exception {
    Path rules = RulesFiles.helloPerIp(dir, 3);
    try (ModuleApp app = ModuleApp.start(List.of())) {
      assertEquals(List.of(200, 200), app.statuses("/hello", 2), app.describe());

      CliIT.Result attached = CliIT.run("attach", Long.toString(app.pid()), "config=" + rules);
      assertEquals(0, attached.exitCode, attached.out + attached.err);
      app.awaitOutput("[tollgate] ready; watching");

      assertEquals(List.of(200, 200, 200, 429, 429), app.statuses("/hello", 5), app.describe());
      app.assertNoErrors();
    }
  }

  @Test
  void whereTheLoaderCannotBeWovenEveryRequestPassesAndOneErrorNamesTheLoaderAndTheFix()
      throws Exception {
    Path rules = RulesFiles.helloPerIp(dir, 5);
    Path unwoven = jarOf(dir.resolve("module-loader.jar"), ModuleLikeClassLoader.class);
    try (ModuleApp app = ModuleApp.start(List.of("-Xbootclasspath/a:" + unwoven,
        agentOption("config=" + rules)))) {
      app.awaitOutput("[tollgate] ready; watching");
      assertEquals(Collections.nCopies(7, 200), app.statuses("/hello", 7), app.describe());

      List<String> errors = app.agentLines("ERROR");
      assertEquals(1, errors.size(), app.describe());
      assertTrue(errors.get(0).contains("the class loader ModuleLikeClassLoader for ")
              && errors.get(0).contains("does not show its classes the agent's bridge")
              && errors.get(0).contains("requests through them pass unlimited")
              && errors.get(0).contains("Fix: "),
          errors.get(0));
      assertTrue(app.output.stream().noneMatch(l -> l.contains("NoClassDefFoundError")
              || l.contains("LinkageError") || l.contains("VerifyError")),
          app.describe());
    }
  }

  private static String agentOption(String arguments) {
    return "-javaagent:" + TestPaths.agentJar().getAbsolutePath() + "=" + arguments;
  }

  private static Path jarOf(Path jar, Class<?> type) throws IOException {
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file)) {
      String name = type.getName().replace('.', '/') + ".class";
      out.putNextEntry(new JarEntry(name));
      try (InputStream in = type.getClassLoader().getResourceAsStream(name)) {
        in.transferTo(out);
      }
      out.closeEntry();
    }
    return jar;
  }

  /** The test app in its own JVM, inside a {@link ModuleLikeClassLoader}; closed by the test. */
  private static final class ModuleApp implements AutoCloseable {
    final Process process;
    final int port;
    final List<String> output = new CopyOnWriteArrayList<>();
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build();

    private ModuleApp(Process process, int port) {
      this.process = process;
      this.port = port;
    }

    static ModuleApp start(List<String> jvmOptions) throws Exception {
      int port = ForkedApp.freePort();
      List<String> command = new ArrayList<>();
      command.add(Jdk.current().javaExecutable());
      command.add("-Xmx256m");
      command.add("-XX:TieredStopAtLevel=1");
      command.addAll(jvmOptions);
      command.add("-cp");
      command.add(new File(ModuleLikeAppMain.class.getProtectionDomain().getCodeSource()
          .getLocation().toURI()).getAbsolutePath());
      command.add(ModuleLikeAppMain.class.getName());
      command.add(TestPaths.testAppJar(APP).getAbsolutePath());
      command.add(MAIN);
      ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
      builder.environment().put("PORT", Integer.toString(port));
      builder.environment().remove("TOLLGATE_CONFIG");
      ModuleApp app = new ModuleApp(builder.start(), port);
      app.pumpOutput();
      try {
        app.awaitOutput(APP + " listening on port " + port);
      } catch (AssertionError | RuntimeException e) {
        app.close();
        throw e;
      }
      return app;
    }

    private void pumpOutput() {
      Thread pump = new Thread(() -> {
        try (BufferedReader reader = new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
          String line;
          while ((line = reader.readLine()) != null) {
            output.add(line);
          }
        } catch (IOException ignored) {
          // The process ended.
        }
      }, "output of the module-like app");
      pump.setDaemon(true);
      pump.start();
    }

    void awaitOutput(String text) throws InterruptedException {
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      while (System.nanoTime() < deadline) {
        if (output.stream().anyMatch(l -> l.contains(text))) {
          return;
        }
        if (!process.isAlive()) {
          break;
        }
        Thread.sleep(50);
      }
      throw new AssertionError("no line containing '" + text + "'; " + describe());
    }

    List<Integer> statuses(String path, int n) throws IOException, InterruptedException {
      List<Integer> statuses = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(20)).GET().build();
        statuses.add(http.send(request, HttpResponse.BodyHandlers.ofString()).statusCode());
      }
      return statuses;
    }

    List<String> agentLines(String text) {
      return output.stream().filter(l -> l.startsWith("[tollgate]") && l.contains(text))
          .collect(Collectors.toList());
    }

    void assertNoErrors() {
      assertEquals(List.of(), agentLines("ERROR"), describe());
      assertEquals(List.of(), agentLines("could not instrument"), describe());
      assertTrue(output.stream().noneMatch(l -> l.contains("NoClassDefFoundError")
          || l.contains("LinkageError") || l.contains("VerifyError")), describe());
    }

    long pid() {
      return process.pid();
    }

    String describe() {
      return "output:\n" + String.join("\n", output);
    }

    @Override
    public void close() throws InterruptedException {
      process.destroy();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }
}
