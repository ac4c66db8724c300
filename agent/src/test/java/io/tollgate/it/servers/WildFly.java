package io.tollgate.it.servers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * WildFly standalone, the agent in JAVA_OPTS exactly as operators add one:
 * {@code JAVA_OPTS="-javaagent:...=config=..." bin/standalone.sh}. With JAVA_OPTS set,
 * standalone.conf keeps none of its defaults (heap, {@code jboss.modules.system.pkgs}): the agent
 * must work without them. The instance is a copy of {@code standalone/} (jboss.server.base.dir),
 * all its ports moved by one offset, the WAR in {@code deployments/}.
 */
final class WildFly extends Server {

  /** Every port standalone.xml binds, before the offset. */
  private static final int[] PORTS = {8080, 8443, 9990, 9993, 4712, 4713};

  private final String version;
  private int offset;

  WildFly(String version) {
    this.version = version;
  }

  @Override
  String name() {
    return "WildFly " + version;
  }

  @Override
  String war() {
    return "war-jakarta";
  }

  @Override
  boolean hasJaxRs() {
    return true;
  }

  @Override
  int port() {
    return 8080 + offset;
  }

  @Override
  Launch prepare(Path dir, String agentOption) throws IOException {
    Path home = distribution("wildfly-" + version);
    offset = freeOffset();
    Path base = dir.resolve("standalone");
    copyTree(home.resolve("standalone/configuration"), base.resolve("configuration"));
    Files.createDirectories(base.resolve("deployments"));
    Files.copy(warFile(), base.resolve("deployments/" + war() + ".war"));

    Launch launch = new Launch(dir);
    launch.command.add("bash");
    launch.command.add(home.resolve("bin/standalone.sh").toString());
    launch.command.add("-Djboss.server.base.dir=" + base);
    launch.command.add("-Djboss.socket.binding.port-offset=" + offset);
    launch.command.add("-b=127.0.0.1");
    launch.environment.put("JAVA_HOME", jdk().home().toString());
    if (agentOption != null) {
      launch.environment.put("JAVA_OPTS", agentOption);
    }
    launch.logFiles.add(base.resolve("log/server.log"));
    return launch;
  }

  /**
   * An offset at which every port WildFly binds is free now, all of them below Linux's ephemeral
   * range (32768 and up), where the kernel hands out ports to other programs' connections.
   */
  private static int freeOffset() {
    for (int attempt = 0; attempt < 100; attempt++) {
      int candidate = ThreadLocalRandom.current().nextInt(1_000, 22_000);
      boolean free = true;
      for (int port : PORTS) {
        free &= ServerProcess.isFree(port + candidate);
      }
      if (free) {
        return candidate;
      }
    }
    throw new IllegalStateException("no free port offset for WildFly");
  }
}
