package io.tollgate.bootstrap;

import java.io.File;

/**
 * {@code java -jar tollgate-agent.jar ...}: the command line ({@code attach}, {@code validate},
 * {@code --help}, {@code --version}), run from the isolated tier like the agent itself.
 */
public final class TollgateMain {

  private TollgateMain() {}

  public static void main(String[] args) throws Exception {
    File jar =
        new File(TollgateMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    // The command line is its own process: the system class loader (which sees jdk.attach) may
    // be the parent here.
    ClassLoader isolated = new AgentClassLoader(jar, TollgateMain.class.getClassLoader());
    Thread.currentThread().setContextClassLoader(isolated);
    Class<?> cli = Class.forName("io.tollgate.cli.Cli", true, isolated);
    Object exitCode = cli.getMethod("run", String[].class, File.class).invoke(null, args, jar);
    System.exit((Integer) exitCode);
  }
}
