package io.tollgate.testing;

import java.lang.management.ManagementFactory;

/**
 * One {@code [progress]} line in the build's output for each step of a long integration test, so
 * that a reader of {@code mvn -B verify} sees what the build is doing during its minutes of
 * servers starting and floods running, rather than silence. Each line gives the seconds since the
 * test JVM started, which tells a stuck step from a slow one.
 *
 * <p>The integration tests' standard output goes to the build's console (agent/pom.xml, failsafe:
 * {@code redirectTestOutputToFile} is false for this reason); a line is printed whole, so lines
 * from parallel threads do not interleave.
 */
public final class Progress {

  private Progress() {}

  /** {@code [progress] 123 s  what: step}. */
  public static void say(String what, String step) {
    long seconds = ManagementFactory.getRuntimeMXBean().getUptime() / 1000;
    String line = String.format("[progress] %4d s  %s: %s", seconds, what, step);
    synchronized (System.out) {
      System.out.println(line);
      System.out.flush();
    }
  }
}
