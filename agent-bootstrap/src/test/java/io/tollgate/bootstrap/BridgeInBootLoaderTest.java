package io.tollgate.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Proxy;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which classes {@link BridgeInBootLoader} defines in the bootstrap class loader, and what it does
 * where it cannot. (That it does in a real JVM, and that the JVM then prints nothing of its own:
 * JvmOutputIT, and every test that forks an application with the agent.)
 */
class BridgeInBootLoaderTest {

  private static final String PACKAGE = "io.tollgate.bootstrap.";

  @TempDir Path dir;

  @Test
  void everyClassOfThePackageButTheEntryPointsAndTheDefinersIsDefined() throws Exception {
    Set<String> expected = new TreeSet<>();
    for (String file : compiledClassFiles()) {
      String simpleName = file.substring(0, file.length() - ".class".length());
      String outer = simpleName.split("\\$")[0];
      if (!Arrays.asList(BridgeInBootLoader.STAYS_IN_SYSTEM_LOADER).contains(outer)) {
        expected.add(PACKAGE + simpleName);
      }
    }
    assertEquals(expected, new TreeSet<>(Arrays.asList(BridgeInBootLoader.CLASSES)));
    assertEquals(expected.size(), BridgeInBootLoader.CLASSES.length, "each named once");
  }

  @Test
  void eachClassComesAfterItsSuperTypesAmongThem() throws Exception {
    List<String> order = Arrays.asList(BridgeInBootLoader.CLASSES);
    for (int i = 0; i < order.size(); i++) {
      Class<?> type = Class.forName(order.get(i), false, getClass().getClassLoader());
      List<Class<?>> superTypes = new ArrayList<>(Arrays.asList(type.getInterfaces()));
      superTypes.add(type.getSuperclass());
      for (Class<?> superType : superTypes) {
        if (superType != null && order.contains(superType.getName())) {
          assertTrue(order.indexOf(superType.getName()) < i,
              superType.getName() + " is defined before " + type.getName());
        }
      }
    }
  }

  @Test
  void whereTheBootLoaderCannotTakeTheClassesTheJarIsAppendedToItsPath() throws Exception {
    File jar = bootstrapJar();
    List<Object[]> moduleChanges = new ArrayList<>();
    List<String> appended = new ArrayList<>();
    // An Instrumentation that accepts the export of the JDK's Unsafe but does not make it: the
    // definer's calls are then refused, as where a JVM has no such class or forbids the change
    Instrumentation inst = (Instrumentation) Proxy.newProxyInstance(
        getClass().getClassLoader(), new Class<?>[] {Instrumentation.class},
        (proxy, method, args) -> {
          switch (method.getName()) {
            case "redefineModule":
              moduleChanges.add(args);
              return null;
            case "appendToBootstrapClassLoaderSearch":
              appended.add(((JarFile) args[0]).getName());
              return null;
            default:
              throw new UnsupportedOperationException(method.getName());
          }
        });

    assertFalse(BridgeInBootLoader.inBootLoader(), "this JVM's bootstrap loader has no bridge");
    BridgeInBootLoader.install(inst, jar);

    assertEquals(List.of(jar.getPath()), appended);
    assertEquals(1, moduleChanges.size());
    Object[] change = moduleChanges.get(0);
    assertEquals(Object.class.getModule(), change[0], "java.base");
    @SuppressWarnings("unchecked")
    Map<String, Set<Module>> exports = (Map<String, Set<Module>>) change[2];
    assertEquals(Set.of("jdk.internal.misc"), exports.keySet());
    Module exportedTo = exports.get("jdk.internal.misc").iterator().next();
    assertEquals(1, exports.get("jdk.internal.misc").size());
    assertFalse(exportedTo.isNamed());
    assertNotSame(getClass().getModule(), exportedTo,
        "exported to the definer's own loader, not to the application's classes' module");
    assertNotSame(ClassLoader.getSystemClassLoader(), exportedTo.getClassLoader());
    assertEquals(List.of(Map.of(), Set.of(), Map.of()),
        List.of(change[3], change[4], change[5]), "nothing opened, used or provided");
  }

  /** The class files of this package, as the build compiled them. */
  private static List<String> compiledClassFiles() throws URISyntaxException, IOException {
    Path classes = classesDirectory().resolve("io/tollgate/bootstrap");
    List<String> names = new ArrayList<>();
    try (var files = Files.list(classes)) {
      files.map(file -> file.getFileName().toString())
          .filter(name -> name.endsWith(".class")).forEach(names::add);
    }
    return names;
  }

  private static Path classesDirectory() throws URISyntaxException {
    return Path.of(TollgateBridge.class.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  /** A jar of this package's classes, laid out as in the agent jar. */
  private File bootstrapJar() throws Exception {
    File jar = dir.resolve("bootstrap.jar").toFile();
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar.toPath()))) {
      for (String file : compiledClassFiles()) {
        out.putNextEntry(new ZipEntry("io/tollgate/bootstrap/" + file));
        copy(classesDirectory().resolve("io/tollgate/bootstrap/" + file), out);
        out.closeEntry();
      }
    }
    return jar;
  }

  private static void copy(Path file, OutputStream out) throws IOException {
    out.write(Files.readAllBytes(file));
  }
}
