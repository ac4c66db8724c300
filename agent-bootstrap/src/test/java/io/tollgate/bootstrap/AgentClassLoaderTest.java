package io.tollgate.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Where the agent's class loader reads a resource or a class from: its jar's {@code inst/}
 * folder, or its parent. The parent is asked first, but for the agent's own resources ({@code
 * io/tollgate/}, in no JDK module: asking would make the JDK's loaders look through all of
 * theirs, in premain) and its own classes (but the bridge's, which are the bootstrap loader's).
 */
class AgentClassLoaderTest {

  @TempDir Path dir;

  /** A parent that holds some names (files under a folder), and records which it was asked for. */
  private static final class RecordingParent extends ClassLoader {
    final List<String> asked = new ArrayList<>();
    final Path folder;

    RecordingParent(Path folder) {
      super(null);
      this.folder = folder;
    }

    @Override
    public URL getResource(String name) {
      asked.add(name);
      return super.getResource(name);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      asked.add(name);
      return Class.forName(name, false, AgentClassLoaderTest.class.getClassLoader());
    }

    @Override
    protected URL findResource(String name) {
      Path file = folder.resolve(name);
      try {
        return Files.exists(file) ? file.toUri().toURL() : null;
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  @ParameterizedTest(name = "{0}: read from {1}, parent asked {2}")
  @CsvSource({
    // resource                         | read from | parent asked
    "io/tollgate/version.properties,     jar,        false",
    "io/tollgate/missing.properties,     none,       true",
    "META-INF/shared.txt,                parent,     true",
    "META-INF/only-in-jar.txt,           jar,        true",
  })
  void readsTheAgentsOwnResourcesFromItsJarWithoutAskingTheParent(
      String name, String readFrom, boolean parentAsked) throws IOException {
    RecordingParent parent =
        new RecordingParent(folderWith("META-INF/shared.txt", "io/tollgate/missing.properties"));
    File jar = jarWith("inst/io/tollgate/version.properties", "inst/META-INF/shared.txt",
        "inst/META-INF/only-in-jar.txt");
    AgentClassLoader loader = new AgentClassLoader(jar, parent);
    try (InputStream in = loader.getResourceAsStream(name)) {
      String read = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
      // a name of the agent's folder that its jar lacks is still looked for, in the parent, last
      assertEquals(readFrom.equals("none") ? "parent" : readFrom, read);
    }
    assertEquals(parentAsked, parent.asked.contains(name), "parent asked for " + name);
  }

  @Test
  void aNameInNeitherIsNotFound() throws IOException {
    File jar = jarWith("inst/io/tollgate/version.properties");
    AgentClassLoader loader = new AgentClassLoader(jar, new RecordingParent(folderWith()));
    assertNull(loader.getResourceAsStream("io/tollgate/nothing.properties"));
  }

  @ParameterizedTest(name = "{0}: parent asked {1}")
  @CsvSource({
    // class                                | parent asked
    "io.tollgate.bootstrap.RequestGate,      true",  // the bridge: the bootstrap loader's, shared
    "java.lang.String,                       true",
    "io.tollgate.engine.NotInThisJar,        false", // the agent's own: under inst/ or nowhere
    "io.tollgate.shaded.org.yaml.NotHere,    false",
  })
  void asksTheParentForEveryClassButTheAgentsOwn(String name, boolean parentAsked)
      throws IOException {
    RecordingParent parent = new RecordingParent(folderWith());
    AgentClassLoader loader = new AgentClassLoader(jarWith("inst/io/tollgate/x.txt"), parent);
    try {
      loader.loadClass(name);
    } catch (ClassNotFoundException notInTheJar) {
      // the agent's own classes that the jar lacks are not found, as before
    }
    assertEquals(parentAsked, parent.asked.contains(name), "parent asked for " + name);
  }

  /** A folder whose files each hold "parent". */
  private Path folderWith(String... files) throws IOException {
    Path folder = Files.createDirectories(dir.resolve("parent"));
    for (String name : files) {
      Path file = folder.resolve(name);
      Files.createDirectories(file.getParent());
      Files.write(file, "parent".getBytes(StandardCharsets.US_ASCII));
    }
    return folder;
  }

  /** A jar whose entries each hold "jar". */
  private File jarWith(String... entries) throws IOException {
    Path path = dir.resolve("agent.jar");
    try (OutputStream file = Files.newOutputStream(path);
        JarOutputStream out = new JarOutputStream(file)) {
      for (String entry : entries) {
        out.putNextEntry(new JarEntry(entry));
        out.write("jar".getBytes(StandardCharsets.US_ASCII));
        out.closeEntry();
      }
    }
    return path.toFile();
  }
}
