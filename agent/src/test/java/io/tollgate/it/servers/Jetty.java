package io.tollgate.it.servers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Jetty 12 as its docs lay it out: jetty.home the distribution, a jetty.base made by
 * {@code java -jar $JETTY_HOME/start.jar --add-modules=http,EE-deploy}, the WAR in
 * {@code webapps/}, started by {@code java -javaagent:... -jar $JETTY_HOME/start.jar} in the base.
 * No module here needs a forked JVM ({@code --exec}), so the agent on that command line is in
 * the server's JVM.
 */
final class Jetty extends Server {

  private final String version;
  private final String environment;
  private final String war;
  private int port;

  /** {@code environment}: ee8 (javax.servlet) or ee10 (jakarta.servlet 6). */
  Jetty(String version, String environment, String war) {
    this.version = version;
    this.environment = environment;
    this.war = war;
  }

  @Override
  String name() {
    return "Jetty " + version + " " + environment;
  }

  @Override
  String war() {
    return war;
  }

  @Override
  boolean hasJaxRs() {
    return false;
  }

  @Override
  int port() {
    return port;
  }

  @Override
  Launch prepare(Path base, String agentOption) throws IOException, RuntimeException {
    Path home = distribution("jetty-home-" + version);
    port = freePort();
    Files.createDirectories(base);
    String startJar = home.resolve("start.jar").toString();
    ProcessBuilder addModules = new ProcessBuilder(jdk().javaExecutable(), "-jar", startJar,
        "jetty.home=" + home, "jetty.base=" + base, "--add-modules=http," + environment + "-deploy")
        .directory(base.toFile())
        .redirectErrorStream(true)
        .redirectOutput(base.resolve("add-modules.log").toFile());
    try {
      int exit = addModules.start().waitFor();
      if (exit != 0) {
        throw new IllegalStateException("--add-modules exited with " + exit + ": "
            + new String(Files.readAllBytes(base.resolve("add-modules.log"))));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    Files.createDirectories(base.resolve("webapps"));
    Files.copy(warFile(), base.resolve("webapps/" + war + ".war"));

    Launch launch = new Launch(base);
    launch.command.add(jdk().javaExecutable());
    if (agentOption != null) {
      launch.command.add(agentOption);
    }
    launch.command.add("-jar");
    launch.command.add(startJar);
    launch.command.add("jetty.home=" + home);
    launch.command.add("jetty.base=" + base);
    launch.command.add("jetty.http.host=127.0.0.1");
    launch.command.add("jetty.http.port=" + port);
    return launch;
  }
}
