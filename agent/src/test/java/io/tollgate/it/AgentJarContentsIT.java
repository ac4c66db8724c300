package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * The agent jar must not leak into the application: only Tollgate's own classes are visible at its
 * root, everything else is hidden under {@code inst/} and relocated, nothing is Kotlin, and every
 * class runs on Java 11.
 */
class AgentJarContentsIT {

  private static final int JAVA_11_MAJOR = 55;

  @Test
  void visibleClassesAreTollgatesOwnAndEverythingElseIsHiddenAndRelocated() throws IOException {
    List<String> leaks = new ArrayList<>();
    try (JarFile jar = new JarFile(TestPaths.agentJar())) {
      for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
        String name = e.nextElement().getName();
        if (name.endsWith(".class") && !name.startsWith("io/tollgate/")) {
          leaks.add(name + " (visible to application class loaders)");
        }
        if (name.endsWith(".classdata") && !name.startsWith("inst/io/tollgate/")) {
          leaks.add(name + " (third-party class not relocated under io.tollgate)");
        }
        if (name.startsWith("inst/") && name.endsWith(".class")) {
          leaks.add(name + " (a plain class file under inst/)");
        }
      }
    }
    assertEquals(List.of(), leaks);
  }

  @Test
  void noKotlin() throws IOException {
    try (JarFile jar = new JarFile(TestPaths.agentJar())) {
      List<String> kotlin = new ArrayList<>();
      jar.stream()
          .map(JarEntry::getName)
          .filter(n -> n.toLowerCase().contains("kotlin"))
          .forEach(kotlin::add);
      assertEquals(List.of(), kotlin);
    }
  }

  @Test
  void everyClassRunsOnJava11() throws IOException {
    List<String> tooNew = new ArrayList<>();
    int classes = 0;
    try (JarFile jar = new JarFile(TestPaths.agentJar())) {
      for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
        JarEntry entry = e.nextElement();
        if (entry.getName().endsWith(".class") || entry.getName().endsWith(".classdata")) {
          classes++;
          int major = majorVersion(jar, entry);
          if (major > JAVA_11_MAJOR) {
            tooNew.add(entry.getName() + " (class file version " + major + ")");
          }
        }
      }
    }
    assertTrue(classes > 1000, "expected the whole agent in the jar, found " + classes + " classes");
    assertEquals(List.of(), tooNew);
  }

  /**
   * The classes a start defines are stored as they are (the agent's class loader reads them without
   * inflating), and every one the list names is in the jar: a class renamed or moved off the list's
   * name would silently be deflated again. The rest stays deflated.
   */
  @Test
  void theStartPathsClassesAreStoredAndTheRestDeflated() throws IOException {
    List<String> listed = Files.readAllLines(Paths.get("start-path-classes.txt"));
    assertTrue(listed.contains("io/tollgate/agent/AgentMain.classdata"), "the list: " + listed.size());
    assertTrue(listed.size() > 300, "expected the start's ~400 classes, found " + listed.size());
    List<String> wrong = new ArrayList<>();
    try (JarFile jar = new JarFile(TestPaths.agentJar())) {
      for (String name : listed) {
        JarEntry entry = jar.getJarEntry("inst/" + name);
        if (entry == null) {
          wrong.add(name + " (listed, not in the jar: run benchmarks/start-path-classes.sh)");
        } else if (entry.getMethod() != ZipEntry.STORED) {
          wrong.add(name + " (listed, deflated)");
        }
      }
      // Lettuce's, never defined by a start without Redis rules
      JarEntry redisClient = jar.getJarEntry(
          "inst/io/tollgate/shaded/io/lettuce/core/RedisClient.classdata");
      if (redisClient == null || redisClient.getMethod() != ZipEntry.DEFLATED) {
        wrong.add("the Redis client's RedisClient (expected deflated)");
      }
    }
    assertEquals(List.of(), wrong);
  }

  @Test
  void manifestDeclaresTheAgentEntryPointsAndRetransformation() throws IOException {
    try (JarFile jar = new JarFile(TestPaths.agentJar())) {
      Attributes main = jar.getManifest().getMainAttributes();
      assertEquals("io.tollgate.bootstrap.TollgateAgent", main.getValue("Premain-Class"));
      assertEquals("io.tollgate.bootstrap.TollgateAgent", main.getValue("Agent-Class"));
      assertEquals("io.tollgate.bootstrap.TollgateMain", main.getValue("Main-Class"));
      assertEquals("true", main.getValue("Can-Retransform-Classes"));
    }
  }

  private static int majorVersion(JarFile jar, JarEntry entry) throws IOException {
    try (InputStream in = jar.getInputStream(entry);
        DataInputStream data = new DataInputStream(in)) {
      int magic = data.readInt();
      if (magic != 0xCAFEBABE) {
        throw new IOException(entry.getName() + " is not a class file");
      }
      data.readUnsignedShort();
      return data.readUnsignedShort();
    }
  }
}
