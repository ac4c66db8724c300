package io.tollgate.it.servers;

import io.tollgate.it.Jdk;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Payara Micro 7 (it needs Java 21 or later, so JDK 25 here):
 * {@code java -javaagent:... -jar payara-micro.jar --deploy app.war --port N}. Clustering off
 * ({@code --nocluster}): parallel instances on one machine would otherwise find each other.
 */
final class PayaraMicro extends Server {

  private final String version;
  private int port;

  PayaraMicro(String version) {
    this.version = version;
  }

  @Override
  String name() {
    return "Payara Micro " + version;
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
  Jdk jdk() {
    return Jdk.jdk25();
  }

  @Override
  int port() {
    return port;
  }

  @Override
  Launch prepare(Path dir, String agentOption) throws IOException {
    Path jar = distribution("payara-micro-" + version).resolve("payara-micro-" + version + ".jar");
    port = freePort();
    Launch launch = new Launch(dir);
    launch.command.add(jdk().javaExecutable());
    if (agentOption != null) {
      launch.command.add(agentOption);
    }
    launch.command.add("-jar");
    launch.command.add(jar.toString());
    launch.command.add("--deploy");
    launch.command.add(warFile().toString());
    launch.command.add("--port");
    launch.command.add(Integer.toString(port));
    launch.command.add("--nocluster");
    launch.command.add("--rootdir");
    launch.command.add(dir.resolve("root").toString());
    return launch;
  }
}
