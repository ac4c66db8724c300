package io.tollgate.it;

import java.io.File;

/** Where the build put the agent jar and the test apps (set by failsafe in agent/pom.xml). */
public final class TestPaths {

  private TestPaths() {}

  public static File agentJar() {
    return existing(
        new File(System.getProperty("tollgate.agent.jar", "target/tollgate-agent.jar")),
        "the agent jar; run `mvn -B verify` from the project root");
  }

  static File testAppJar(String name) {
    File apps = new File(System.getProperty("tollgate.test.apps", "../test-apps"));
    return existing(
        new File(apps, name + "/target/" + name + ".jar"),
        "test app " + name + "; run `mvn -B verify` from the project root");
  }

  /** A WAR test app ({@code war-javax}, {@code war-jakarta}), deployed by the server smoke matrix. */
  public static File testAppWar(String name) {
    File apps = new File(System.getProperty("tollgate.test.apps", "../test-apps"));
    return existing(
        new File(apps, name + "/target/" + name + ".war"),
        "test app " + name + "; run `mvn -B verify` from the project root");
  }

  static File configExamples() {
    return existing(
        new File(System.getProperty("tollgate.config.examples", "../config-examples")),
        "config-examples/");
  }

  private static File existing(File file, String what) {
    if (!file.exists()) {
      throw new IllegalStateException("missing " + what + ": " + file.getAbsolutePath());
    }
    return file;
  }
}
