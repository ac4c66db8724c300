package io.tollgate.instrumentation.classloader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every class loader of the weave corpora (Tomcat's, Jetty's, Undertow's, Payara's... the jars
 * {@code WeavingVerificationIT} weaves, in {@code target/weave-corpus}) is woven by the prologue
 * written into its bytes, not left to ASM, and each woven class links in a JVM that sees its
 * corpus: the JVM's verifier accepts its code and stack map frames.
 */
class LoadClassPrologueCorporaIT {

  private static final Path CORPORA =
      Paths.get(System.getProperty("tollgate.weave.corpus", "target/weave-corpus"));
  private static final ClassLoaderWeaving WEAVING = ClassLoaderWeaving.ofBootstrapPackage();
  private static final LoadClassPrologue PROLOGUE =
      new LoadClassPrologue(ClassLoaderWeaving.BOOTSTRAP_PACKAGE_PREFIX);

  @Test
  void everyClassLoaderOfTheCorporaIsWovenInItsBytesAndVerifies() throws Exception {
    assertTrue(Files.isDirectory(CORPORA), CORPORA.toAbsolutePath()
        + " is missing: the weave corpora are fetched by mvn verify (agent/pom.xml, weave-corpus-*)");
    TreeMap<String, String> leftToAsm = new TreeMap<>();
    TreeMap<String, String> verifyErrors = new TreeMap<>();
    int woven = 0;
    int linked = 0;
    try (Stream<Path> folders = Files.list(CORPORA)) {
      for (Path folder : folders.filter(Files::isDirectory).sorted().collect(Collectors.toList())) {
        List<Path> jars = jars(folder);
        URL[] urls = new URL[jars.size()];
        for (int i = 0; i < urls.length; i++) {
          urls[i] = jars.get(i).toUri().toURL();
        }
        try (URLClassLoader corpus = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader())) {
          for (Path jar : jars) {
            try (JarFile file = new JarFile(jar.toFile())) {
              Enumeration<JarEntry> entries = file.entries();
              while (entries.hasMoreElements()) {
                JarEntry entry = entries.nextElement();
                if (!entry.getName().endsWith(".class") || entry.getName().contains("-")) {
                  continue;
                }
                byte[] classFile;
                try (InputStream in = file.getInputStream(entry)) {
                  classFile = in.readAllBytes();
                }
                if (WEAVING.weave(classFile) == null) {
                  continue;
                }
                woven++;
                String name = entry.getName().replace('/', '.').replace(".class", "");
                byte[] ours = PROLOGUE.weave(classFile);
                if (ours == LoadClassPrologue.CANNOT || ours == null) {
                  leftToAsm.put(folder.getFileName() + " " + name, String.valueOf(ours));
                  continue;
                }
                try {
                  new LoaderClassFiles.DefinedAlone(corpus, name, ours).loadClass(name).getDeclaredConstructors();
                  linked++;
                } catch (UnsupportedClassVersionError newerThanThisJvm) {
                  woven--; // Payara's Java 21 classes on Java 17: linked on a newer JDK only
                } catch (VerifyError | ClassFormatError e) {
                  verifyErrors.put(folder.getFileName() + " " + name, e.toString());
                } catch (LinkageError | ClassNotFoundException missingDependency) {
                  // a class of the corpus whose dependencies it does not hold: not linked
                }
              }
            }
          }
        }
      }
    }
    System.out.println("class loaders woven by the prologue " + woven + ", linked " + linked
        + ", on Java " + Runtime.version().feature());
    assertEquals(new TreeMap<>(), verifyErrors, "woven class loaders the verifier refused");
    assertEquals(new TreeMap<>(), leftToAsm, "class loaders the prologue left to ASM");
    assertTrue(woven >= 10, "class loaders woven in the corpora: " + woven);
    // the others need a class their corpus does not hold (an optional dependency)
    assertTrue(linked >= woven * 3 / 4, linked + " of " + woven + " woven class loaders linked");
  }

  private static List<Path> jars(Path folder) throws IOException {
    try (Stream<Path> files = Files.walk(folder)) {
      return files.filter(file -> file.toString().endsWith(".jar")).sorted()
          .collect(Collectors.toCollection(ArrayList::new));
    }
  }
}
