package io.tollgate.it.servers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Standalone Tomcat as its docs lay it out: CATALINA_HOME the distribution, CATALINA_BASE the
 * instance (conf/, webapps/ with the WAR, logs/), the agent in {@code bin/setenv.sh}:
 * {@code CATALINA_OPTS="$CATALINA_OPTS -javaagent:..."}, started by {@code bin/catalina.sh run}.
 */
final class Tomcat extends Server {

  private final String version;
  private final String war;
  private int port;

  Tomcat(String version, String war) {
    this.version = version;
    this.war = war;
  }

  @Override
  String name() {
    return "Tomcat " + version;
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
  Launch prepare(Path base, String agentOption) throws IOException {
    Path home = distribution("apache-tomcat-" + version);
    port = freePort();
    copyTree(home.resolve("conf"), base.resolve("conf"));
    for (String dir : new String[] {"logs", "temp", "work", "webapps", "bin"}) {
      Files.createDirectories(base.resolve(dir));
    }
    Path serverXml = base.resolve("conf/server.xml");
    edit(serverXml, "<Connector port=\"8080\"", "<Connector address=\"127.0.0.1\" port=\"" + port + "\"");
    edit(serverXml, "<Server port=\"8005\"", "<Server port=\"-1\"");
    Files.copy(warFile(), base.resolve("webapps/" + war + ".war"));
    if (agentOption != null) {
      // catalina.sh sources CATALINA_BASE/bin/setenv.sh; CATALINA_OPTS reaches only the server's
      // JVM (not `catalina.sh stop`'s, as JAVA_OPTS would).
      write(base.resolve("bin/setenv.sh"), "CATALINA_OPTS=\"$CATALINA_OPTS " + agentOption + "\"\n");
    }
    Launch launch = new Launch(base);
    launch.command.add("bash");
    launch.command.add(home.resolve("bin/catalina.sh").toString());
    launch.command.add("run");
    launch.environment.put("CATALINA_HOME", home.toString());
    launch.environment.put("CATALINA_BASE", base.toString());
    launch.environment.put("JAVA_HOME", jdk().home().toString());
    return launch;
  }
}
