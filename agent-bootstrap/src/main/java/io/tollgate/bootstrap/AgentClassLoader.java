package io.tollgate.bootstrap;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.security.cert.Certificate;
import java.util.Collections;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Loads the isolated agent from the {@code inst/} folder of the agent jar, where its classes are
 * stored as {@code .classdata} files.
 *
 * <p>No application class loader or classpath scanner (Spring's, CDI's, an app server's) looks at
 * {@code .classdata} files, so the agent's classes, and the Byte Buddy, Caffeine, SnakeYAML and
 * Lettuce inside it, can never clash with the application's own copies. Its parent is the platform
 * class loader: JDK modules and the bootstrap bridge are visible, the application is not.
 */
final class AgentClassLoader extends ClassLoader {

  static {
    registerAsParallelCapable();
  }

  private static final String PREFIX = "inst/";
  private static final String CLASS_SUFFIX = ".classdata";
  /** The agent's own resources: under {@code inst/} in its jar, and nowhere in the JDK. */
  private static final String OWN_RESOURCES = "io/tollgate/";
  /** The agent's own classes (its shaded libraries' too): under {@code inst/} only. */
  private static final String OWN_CLASSES = "io.tollgate.";
  /** But for the bridge's, which every class loader must share: the bootstrap loader's. */
  private static final String BRIDGE_CLASSES = "io.tollgate.bootstrap.";

  private final JarFile jar;
  private final String jarUrl;
  private final ProtectionDomain protectionDomain;

  AgentClassLoader(File jarFile, ClassLoader parent) throws IOException {
    super(parent);
    this.jar = new JarFile(jarFile, false);
    this.jarUrl = "jar:" + jarFile.toURI() + "!/";
    CodeSource codeSource = new CodeSource(jarFile.toURI().toURL(), (Certificate[]) null);
    this.protectionDomain = new ProtectionDomain(codeSource, null, this, null);
  }

  /**
   * The agent's own classes are defined here without asking the parent first: it cannot have them
   * (they are under {@code inst/} only), and for each of the ~500 that an agent's start loads, the
   * platform loader would make a lock for the name, the bootstrap loader search its class path
   * (this jar too, where it had to be appended to it), and the platform loader then throw a {@link
   * ClassNotFoundException} with its stack trace, in {@code premain} too. The bridge's classes, and
   * every other class, are the parent's first, as always.
   */
  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    if (!name.startsWith(OWN_CLASSES) || name.startsWith(BRIDGE_CLASSES)) {
      return super.loadClass(name, resolve);
    }
    synchronized (getClassLoadingLock(name)) {
      Class<?> loaded = findLoadedClass(name);
      if (loaded == null) {
        loaded = findClass(name);
      }
      if (resolve) {
        resolveClass(loaded);
      }
      return loaded;
    }
  }

  @Override
  protected Class<?> findClass(String name) throws ClassNotFoundException {
    JarEntry entry = jar.getJarEntry(PREFIX + name.replace('.', '/') + CLASS_SUFFIX);
    if (entry == null) {
      throw new ClassNotFoundException(name);
    }
    try (InputStream in = jar.getInputStream(entry)) {
      byte[] bytes = read(in, entry.getSize());
      definePackageOf(name);
      return defineClass(name, bytes, 0, bytes.length, protectionDomain);
    } catch (IOException e) {
      throw new ClassNotFoundException(name, e);
    }
  }

  private void definePackageOf(String className) {
    int dot = className.lastIndexOf('.');
    if (dot > 0) {
      String pkg = className.substring(0, dot);
      if (getDefinedPackage(pkg) == null) {
        try {
          definePackage(pkg, null, null, null, null, null, null, null);
        } catch (IllegalArgumentException alreadyDefinedByAnotherThread) {
          // Parallel class loading: another thread defined it first.
        }
      }
    }
  }

  /** Class files are asked for as {@code X.class}, as a library reading its own classes would. */
  @Override
  protected URL findResource(String name) {
    String path = entryName(name);
    if (jar.getJarEntry(path) == null) {
      return null;
    }
    try {
      return new URL(jarUrl + path);
    } catch (MalformedURLException e) {
      return null;
    }
  }

  /**
   * The agent's own resources (its version, say) read straight from the jar it holds open: through
   * a {@code jar:} URL the JDK would load and set up a dozen classes of its URL connections to read
   * one small file, in {@code premain}, on the application's main thread. The parent is asked
   * first, as {@link #getResource} does, but for the agent's own folder ({@code io/tollgate/}),
   * which no JDK module holds: for a name in no package of theirs, the boot and platform loaders
   * look in every one of their modules before they say no (some 70 lookups in the JDK's image, in
   * {@code premain}).
   */
  @Override
  public InputStream getResourceAsStream(String name) {
    if (name.startsWith(OWN_RESOURCES) || getParent().getResource(name) == null) {
      JarEntry entry = jar.getJarEntry(entryName(name));
      if (entry != null) {
        try {
          return jar.getInputStream(entry);
        } catch (IOException e) {
          return null;
        }
      }
    }
    return super.getResourceAsStream(name);
  }

  @Override
  protected Enumeration<URL> findResources(String name) {
    URL url = findResource(name);
    return url == null ? Collections.emptyEnumeration() : Collections.enumeration(Collections.singleton(url));
  }

  /** Where the resource {@code name} is in the jar. */
  private static String entryName(String name) {
    return name.endsWith(".class")
        ? PREFIX + name.substring(0, name.length() - ".class".length()) + CLASS_SUFFIX
        : PREFIX + name;
  }

  /**
   * A class file of {@code size} bytes (the jar's index gives it): read into one array of that
   * size, with no buffer and no copy for each of the ~500 classes a start defines; read to its end
   * when the size is unknown.
   */
  private static byte[] read(InputStream in, long size) throws IOException {
    if (size < 0 || size > Integer.MAX_VALUE - 8) {
      return in.readAllBytes();
    }
    byte[] bytes = new byte[(int) size];
    int n = in.readNBytes(bytes, 0, bytes.length);
    if (n < bytes.length || in.read() != -1) {
      throw new IOException("the jar's entry is not as long as its index says: " + size);
    }
    return bytes;
  }
}
