package io.tollgate.it;

import java.io.File;
import java.util.ArrayList;
import java.util.List;

/**
 * A JDK to run the test apps on. The suite runs each app on the build's JDK (17) and on JDK 25,
 * found at {@code tollgate.test.jdk25} or Temurin's usual place; when it is missing the tests
 * fail and say where to put it, rather than pass with half the coverage.
 */
public final class Jdk {

  private static final String JDK25_PROPERTY = "tollgate.test.jdk25";
  private static final String JDK25_DEFAULT = "/usr/lib/jvm/temurin-25-jdk-amd64";

  private final String label;
  private final File home;

  private Jdk(String label, File home) {
    this.label = label;
    this.home = home;
  }

  public static Jdk current() {
    return new Jdk("JDK " + Runtime.version().feature(), new File(System.getProperty("java.home")));
  }

  public static Jdk jdk25() {
    File home = new File(System.getProperty(JDK25_PROPERTY, JDK25_DEFAULT));
    if (!new File(home, "bin/java").canExecute()) {
      throw new IllegalStateException("JDK 25 not found at " + home + "; install Temurin 25 there"
          + " or pass -D" + JDK25_PROPERTY + "=/path/to/jdk-25");
    }
    return new Jdk("JDK 25", home);
  }

  /** The JDKs every app is tested on. */
  public static List<Jdk> all() {
    List<Jdk> jdks = new ArrayList<>();
    jdks.add(current());
    jdks.add(jdk25());
    return jdks;
  }

  public File home() {
    return home;
  }

  public String javaExecutable() {
    return new File(home, "bin/java").getAbsolutePath();
  }

  @Override
  public String toString() {
    return label;
  }
}
