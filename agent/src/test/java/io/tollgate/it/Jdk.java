package io.tollgate.it;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * A JDK to run the test apps on. The suite runs each app on the build's JDK (17) and on JDK 25,
 * found at {@code -Dtollgate.test.jdk25=PATH} (or {@code -Dtollgate.jdk25}), else at
 * {@code $JAVA25_HOME}, else at Temurin's usual place, {@value #JDK25_DEFAULT}.
 *
 * <p>A machine with JDK 17 only (the README's "a JDK and Maven") still passes the README's test
 * command: the JDK 25 cases are reported as skipped, each with the reason, and the test output
 * says once, on one line, that the JDK 25 leg was not run and why. Where JDK 25 must run, a
 * missing one fails instead: when its place was named (the property or {@code JAVA25_HOME}: a
 * wrong path is a mistake to show), or with {@code -Dtollgate.test.require-jdk25=true}, which CI
 * sets.
 */
public final class Jdk {

  static final String JDK25_PROPERTY = "tollgate.test.jdk25";
  static final String JDK25_SHORT_PROPERTY = "tollgate.jdk25";
  static final String JDK25_ENV = "JAVA25_HOME";
  static final String JDK25_DEFAULT = "/usr/lib/jvm/temurin-25-jdk-amd64";
  static final String REQUIRE_JDK25_PROPERTY = "tollgate.test.require-jdk25";

  private static boolean missingJdk25Said;

  private final String label;
  private final File home;
  private final int feature;
  /** Why this JDK cannot run here, or null when it can. */
  private final String missing;
  private final boolean required;

  private Jdk(int feature, File home, String missing, boolean required) {
    this.label = "JDK " + feature;
    this.home = home;
    this.feature = feature;
    this.missing = missing;
    this.required = required;
  }

  public static Jdk current() {
    return new Jdk(Runtime.version().feature(), new File(System.getProperty("java.home")), null,
        true);
  }

  /**
   * JDK 25. Where it is not installed, it still stands in the tables of cases, and using it
   * ({@link #home()}, {@link #javaExecutable()}) aborts the test with the reason, or fails it
   * when JDK 25 is required.
   */
  public static Jdk jdk25() {
    Jdk jdk = jdk25(firstNonEmpty(System.getProperty(JDK25_PROPERTY),
        System.getProperty(JDK25_SHORT_PROPERTY), System.getenv(JDK25_ENV)), JDK25_DEFAULT,
        Boolean.getBoolean(REQUIRE_JDK25_PROPERTY));
    if (!jdk.installed()) {
      sayOnce(jdk.missing, jdk.required);
    }
    return jdk;
  }

  /** JDK 25 at {@code named} (null when no one named a place), else at {@code defaultHome}. */
  static Jdk jdk25(String named, String defaultHome, boolean requireFlag) {
    File home = new File(named != null ? named : defaultHome);
    boolean required = named != null || requireFlag;
    if (new File(home, "bin/java").canExecute()) {
      return new Jdk(25, home, null, true);
    }
    String where = named != null ? home + " (named by -D" + JDK25_PROPERTY + " or $" + JDK25_ENV
        + ")" : home.toString();
    String missing = "the JDK 25 leg was not run: no JDK 25 at " + where + "; install Temurin 25"
        + " there, or set $" + JDK25_ENV + " or -D" + JDK25_PROPERTY + "=/path/to/jdk-25";
    return new Jdk(25, home, missing, required);
  }

  /** The JDKs every app is tested on: this one and JDK 25. */
  public static List<Jdk> all() {
    List<Jdk> jdks = new ArrayList<>();
    jdks.add(current());
    jdks.add(jdk25());
    return jdks;
  }

  /** Whether tests can run on it here. */
  public boolean installed() {
    return missing == null;
  }

  /** Why it is not installed, or null. */
  public String missing() {
    return missing;
  }

  /** Aborts (skips, with the reason) or fails the calling test when it is not installed. */
  public Jdk require() {
    if (missing != null) {
      if (required) {
        throw new IllegalStateException(label + ": " + missing);
      }
      Assumptions.abort(missing);
    }
    return this;
  }

  public File home() {
    return require().home;
  }

  public String javaExecutable() {
    return new File(require().home, "bin/java").getAbsolutePath();
  }

  /** Its Java release: 17, 25. */
  public int feature() {
    return feature;
  }

  @Override
  public String toString() {
    return label;
  }

  /** The one line of the test output that tells a reader the JDK 25 leg did not run. */
  private static synchronized void sayOnce(String missing, boolean required) {
    if (!missingJdk25Said) {
      missingJdk25Said = true;
      System.out.println("[jdk25] " + (required ? "FAIL: " : "") + missing
          + (required ? "" : " (its cases are reported as skipped)"));
    }
  }

  static String firstNonEmpty(String... values) {
    for (String value : values) {
      if (value != null && !value.trim().isEmpty()) {
        return value.trim();
      }
    }
    return null;
  }
}
