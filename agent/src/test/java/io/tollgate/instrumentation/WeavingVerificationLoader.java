package io.tollgate.instrumentation;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.IllegalClassFormatException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A fresh class loader over one corpus's jars that passes every class it defines through the
 * agent's transformer first, as the JVM does for an application's class loader with the agent
 * installed. Classes are defined by this loader, not the bootstrap one, so the JVM verifies each
 * when it links it.
 *
 * <p>Its parent sees only the JDK and the agent's bootstrap tier ({@code io.tollgate.bootstrap},
 * where woven code calls): in an application that tier is on the boot class path, and nothing
 * else of the test's class path (its servlet API, its Jersey) may stand in for the corpus's own.
 */
final class WeavingVerificationLoader extends URLClassLoader {

  private final ClassFileTransformer transformer;
  /** Each class file as transformed: woven or, when the transformer declined, as it was. */
  private final Map<String, Transformed> transformed = new ConcurrentHashMap<>();

  WeavingVerificationLoader(List<Path> jars, ClassFileTransformer transformer) {
    super(urls(jars), new BootstrapTierOnly());
    this.transformer = transformer;
  }

  /**
   * The woven class file of {@code className}, or null when the transformer leaves it as it is;
   * the class is not defined. Each class is transformed once, here or when it is defined.
   */
  byte[] wovenClassFile(String className) throws IOException {
    Transformed result = transformed(className);
    return result != null && result.woven ? result.classFile : null;
  }

  @Override
  protected Class<?> findClass(String className) throws ClassNotFoundException {
    Transformed result;
    try {
      result = transformed(className);
    } catch (IOException e) {
      throw new ClassNotFoundException(className, e);
    }
    if (result == null) {
      throw new ClassNotFoundException(className);
    }
    return defineClass(className, result.classFile, 0, result.classFile.length);
  }

  private Transformed transformed(String className) throws IOException {
    Transformed known = transformed.get(className);
    if (known != null) {
      return known;
    }
    byte[] original = originalClassFile(className);
    if (original == null) {
      return null;
    }
    return transformed.computeIfAbsent(className, name -> transform(name, original));
  }

  /** The class file as the corpus's jars hold it (a multi-release jar's, for this JVM), or null. */
  private byte[] originalClassFile(String className) throws IOException {
    URL resource = findResource(className.replace('.', '/') + ".class");
    if (resource == null) {
      return null;
    }
    try (InputStream in = resource.openStream()) {
      return in.readAllBytes();
    }
  }

  private Transformed transform(String className, byte[] original) {
    try {
      byte[] woven = transformer.transform(
          this, className.replace('.', '/'), null, null, original);
      return woven == null ? new Transformed(original, false) : new Transformed(woven, true);
    } catch (IllegalClassFormatException e) {
      throw new IllegalStateException(className, e);
    }
  }

  private static URL[] urls(List<Path> jars) {
    return jars.stream().map(jar -> {
      try {
        return jar.toUri().toURL();
      } catch (MalformedURLException e) {
        throw new UncheckedIOException(e);
      }
    }).toArray(URL[]::new);
  }

  private static final class Transformed {
    final byte[] classFile;
    final boolean woven;

    Transformed(byte[] classFile, boolean woven) {
      this.classFile = classFile;
      this.woven = woven;
    }
  }

  /** The JDK's classes, and the agent's bootstrap tier from the test's class path. */
  private static final class BootstrapTierOnly extends ClassLoader {
    private static final String BOOTSTRAP_TIER = "io.tollgate.bootstrap.";

    BootstrapTierOnly() {
      super(ClassLoader.getPlatformClassLoader());
    }

    @Override
    protected Class<?> findClass(String className) throws ClassNotFoundException {
      if (className.startsWith(BOOTSTRAP_TIER)) {
        return Class.forName(className, false, WeavingVerificationLoader.class.getClassLoader());
      }
      throw new ClassNotFoundException(className);
    }
  }
}
