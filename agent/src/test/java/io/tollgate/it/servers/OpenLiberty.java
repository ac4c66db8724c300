package io.tollgate.it.servers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Open Liberty as its docs lay out a server: {@code usr/servers/NAME/} (here under WLP_USER_DIR)
 * with server.xml (servlet-6.0 and restfulWS-3.1, its RESTEasy), the WAR in {@code dropins/}, the
 * agent in the server's {@code jvm.options}, started by {@code bin/server run NAME}.
 */
final class OpenLiberty extends Server {

  private static final String SERVER = "smoke";

  private final String version;
  private int port;

  OpenLiberty(String version) {
    this.version = version;
  }

  @Override
  String name() {
    return "Open Liberty " + version;
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
    return port;
  }

  @Override
  Launch prepare(Path dir, String agentOption) throws IOException {
    Path wlp = distribution("openliberty-" + version).resolve("wlp");
    port = freePort();
    Path userDir = dir.resolve("usr");
    Path server = userDir.resolve("servers/" + SERVER);
    write(server.resolve("server.xml"), String.join("\n",
        "<server description=\"Tollgate smoke matrix\">",
        "  <featureManager>",
        "    <feature>servlet-6.0</feature>",
        "    <feature>restfulWS-3.1</feature>",
        "  </featureManager>",
        "  <httpEndpoint id=\"defaultHttpEndpoint\" host=\"127.0.0.1\" httpPort=\"" + port + "\""
            + " httpsPort=\"-1\"/>",
        "</server>",
        ""));
    Files.createDirectories(server.resolve("dropins"));
    Files.copy(warFile(), server.resolve("dropins/" + war() + ".war"));
    if (agentOption != null) {
      write(server.resolve("jvm.options"), agentOption + "\n");
    }
    Launch launch = new Launch(dir);
    launch.command.add("bash");
    launch.command.add(wlp.resolve("bin/server").toString());
    launch.command.add("run");
    launch.command.add(SERVER);
    launch.environment.put("JAVA_HOME", jdk().home().toString());
    launch.environment.put("WLP_USER_DIR", userDir.toString());
    launch.logFiles.add(server.resolve("logs/messages.log"));
    return launch;
  }
}
