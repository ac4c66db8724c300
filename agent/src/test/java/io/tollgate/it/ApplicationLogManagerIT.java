package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An application that installs its own java.util.logging manager keeps it: the agent does not set
 * up java.util.logging first (its caches' loggers would), it loads the rules at the first request
 * instead, and that request is decided by them.
 */
class ApplicationLogManagerIT {

  @TempDir Path dir;

  @Test
  void onJBossModulesTheApplicationsLogManagerIsTheOneInstalled() throws Exception {
    // WildFly's launch: java -jar jboss-modules.jar ..., whose main names the manager
    Path jar = jarOf(dir.resolve("jboss-modules.jar"), LogManagerMain.class,
        LogManagerMain.AppLogManager.class);
    Path rules = RulesFiles.helloPerIp(dir, 5);

    List<String> output = run("-javaagent:" + TestPaths.agentJar().getAbsolutePath()
        + "=config=" + rules, "-jar", jar.toString(), "3000");

    assertTrue(output.contains("log manager: " + LogManagerMain.AppLogManager.class.getName()),
        "the application's manager, not java.util.logging's own:\n" + String.join("\n", output));
    assertTrue(output.stream().anyMatch(l -> l.startsWith("[tollgate] ")
            && l.contains("runs on JBoss Modules")
            && l.contains("the rules are loaded when the first request arrives")),
        "the log says why the rules wait:\n" + String.join("\n", output));
  }

  @Test
  void withTheArgumentTheFirstRequestLoadsTheRulesAndIsDecidedByThem() throws Exception {
    Path rules = RulesFiles.helloPerIp(dir, 5);
    try (ForkedApp app = ForkedApp.app("servlet-jakarta")
        .withAgent("config=" + rules + ",custom-log-manager=true").start()) {
      ItSupport.assertAllowedThenRefused(app, "/hello", 5, 2);
      ItSupport.awaitCount(app, "ready; watching", 1, ItSupport.RELOAD_TIMEOUT);
      assertEquals(1, ItSupport.count(app, "the rules are loaded when the first request arrives"),
          String.join("\n", app.agentLog()));
      assertEquals(1, ItSupport.count(app, "1 request(s) waited for it"),
          "the first request waited for the rules:\n" + String.join("\n", app.agentLog()));
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  private static Path jarOf(Path jar, Class<?> main, Class<?>... others) throws IOException {
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, main.getName());
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file, manifest)) {
      List<Class<?>> classes = new ArrayList<>();
      classes.add(main);
      classes.addAll(List.of(others));
      for (Class<?> c : classes) {
        String name = c.getName().replace('.', '/') + ".class";
        out.putNextEntry(new JarEntry(name));
        try (InputStream in = c.getClassLoader().getResourceAsStream(name)) {
          in.transferTo(out);
        }
        out.closeEntry();
      }
    }
    return jar;
  }

  /** Runs a JVM to its end (at most 60 s) and returns its output, standard error included. */
  private static List<String> run(String... arguments) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(new File(System.getProperty("java.home"), "bin/java").getAbsolutePath());
    command.addAll(List.of(arguments));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] bytes;
    try (InputStream in = process.getInputStream()) {
      bytes = in.readAllBytes();
    }
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the JVM ended");
    return List.of(new String(bytes, StandardCharsets.UTF_8).split("\\R"));
  }
}
