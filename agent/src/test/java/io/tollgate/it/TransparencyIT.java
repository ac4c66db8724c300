package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.it.RawHttp.Framing;
import io.tollgate.it.servers.DeployedWar;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The app reads what it would read without Tollgate: the same requests to each test app's
 * {@code /echo} (which answers the parameters, body bytes, charset and headers it received), once
 * without the agent and once with rules keyed by every key source on that path, give
 * byte-identical answers. Forms in UTF-8 and Latin-1, read as parameters, as raw bytes or through
 * a reader, with and without the application choosing the charset first; JSON; multipart; chunked
 * bodies and bodies sent in separately flushed pieces; a decoy of the form's field in the query
 * string. Every test app: the jars as {@link ForkedApp}s, the WARs on the servers of the smoke
 * matrix but Payara ({@link DeployedWar}), where the rules' paths and the requests' begin with the
 * context path.
 */
class TransparencyIT {

  /** Every test app run as a jar ({@link ForkedApp}). */
  static final List<String> APPS =
      List.of("servlet-jakarta", "servlet-javax", "servlet-jetty9", "spring-boot2", "spring-boot3",
          "spring-boot4", "jaxrs-jakarta", "jaxrs-javax", "jaxrs-resteasy", "jaxrs-cxf");


  /** The apps whose /echo reads through the servlet API, where the form rule must have decided. */
  static final List<String> SERVLET_READERS =
      List.of("servlet-jakarta", "servlet-javax", "servlet-jetty9", "spring-boot2", "spring-boot3",
          "spring-boot4", "war-javax", "war-jakarta");

  @TempDir Path dir;

  static Stream<String> apps() {
    return APPS.stream().filter(TransparencyIT::selected);
  }

  /** The WARs on their servers: "Tomcat 9.0.98 with war-javax", ... (see DeployedWar). */
  static Stream<String> wars() {
    return DeployedWar.servers().stream().filter(TransparencyIT::selected);
  }

  /**
   * {@code -Dtollgate.transparency.apps=spring-boot2,war-javax,jetty} runs only the apps and
   * servers whose names hold one of those; all by default.
   */
  private static boolean selected(String app) {
    String only = System.getProperty("tollgate.transparency.apps", "").trim();
    String name = app.toLowerCase(Locale.ROOT);
    return only.isEmpty() || Stream.of(only.toLowerCase(Locale.ROOT).split("\\s*,\\s*"))
        .anyMatch(name::contains);
  }

  /** An app serving /echo: where, and what the agent logged there. */
  interface RunningApp extends AutoCloseable {
    int port();

    List<String> agentLog();
  }

  /** Starts an app, with the agent's arguments or (null) without the agent. */
  interface AppStarter {
    RunningApp start(String agentArguments) throws Exception;
  }

  static AppStarter forked(String appName) {
    return agentArguments -> {
      ForkedApp.Options options = ForkedApp.app(appName).on(Jdk.current());
      if (agentArguments != null) {
        options.withAgent(agentArguments);
      }
      ForkedApp app = options.start();
      return new RunningApp() {
        @Override
        public int port() {
          return app.port();
        }

        @Override
        public List<String> agentLog() {
          return app.agentLog();
        }

        @Override
        public void close() throws Exception {
          app.close();
        }
      };
    };
  }

  /** A WAR on its server; each start in its own instance directory under {@code dir}. */
  static AppStarter deployed(String server, Path dir) {
    return agentArguments -> {
      DeployedWar deployed = DeployedWar.start(server,
          dir.resolve(agentArguments == null ? "plain" : "agent"), agentArguments);
      return new RunningApp() {
        @Override
        public int port() {
          return deployed.port();
        }

        @Override
        public List<String> agentLog() {
          return deployed.agentLog();
        }

        @Override
        public void close() throws Exception {
          deployed.close();
        }
      };
    };
  }

  /** One request to /echo: what it is called in a failure, and how it is sent. */
  static final class EchoRequest {
    final String name;
    final String target;
    final List<String> headers;
    final byte[] body;
    final Framing framing;
    final int pieces;

    EchoRequest(String name, String target, List<String> headers, byte[] body, Framing framing,
        int pieces) {
      this.name = name;
      this.target = target;
      this.headers = headers;
      this.body = body;
      this.framing = framing;
      this.pieces = pieces;
    }
  }

  static final String FORM = "Content-Type: application/x-www-form-urlencoded";
  static final String FORM_UTF8 = "Content-Type: application/x-www-form-urlencoded; charset=UTF-8";
  static final String BOUNDARY = "tollgate-boundary-42";

  static List<EchoRequest> requests() {
    byte[] utf8Form = "username=j%C3%BCrgen&password=secret".getBytes(StandardCharsets.US_ASCII);
    byte[] latin1Form = "username=j%FCrgen&password=secret".getBytes(StandardCharsets.US_ASCII);
    // unescaped bytes: é in UTF-8 and in Latin-1, as careless clients send them
    byte[] utf8Raw = "username=jérôme&password=x".getBytes(StandardCharsets.UTF_8);
    byte[] latin1Raw = "username=jérôme&password=x".getBytes(StandardCharsets.ISO_8859_1);
    byte[] webhook = "account=42&event=paid&sig=abc".getBytes(StandardCharsets.US_ASCII);
    byte[] json = "{\"username\":\"jürgen\",\"password\":\"x\"}".getBytes(StandardCharsets.UTF_8);
    byte[] multipart = multipart();
    String multipartType = "Content-Type: multipart/form-data; boundary=" + BOUNDARY;
    String client = "X-Client: client-7";
    String cookie = "Cookie: sid=abc123";
    List<EchoRequest> all = new ArrayList<>();
    for (Framing framing : Framing.values()) {
      int pieces = framing == Framing.WHOLE ? 1 : 4;
      String f = " (" + framing.name().toLowerCase(Locale.ROOT) + ")";
      all.add(new EchoRequest("UTF-8 form, parameters, app sets UTF-8, decoy in query" + f,
          "/echo?username=decoy", List.of(FORM, "X-Echo-Charset: UTF-8", client, cookie),
          utf8Form, framing, pieces));
      all.add(new EchoRequest("UTF-8 form, parameters, app sets no charset" + f,
          "/echo", List.of(FORM, client), utf8Raw, framing, pieces));
      all.add(new EchoRequest("UTF-8 form declared in the Content-Type" + f,
          "/echo", List.of(FORM_UTF8), utf8Raw, framing, pieces));
      all.add(new EchoRequest("Latin-1 form, app sets ISO-8859-1" + f,
          "/echo", List.of(FORM, "X-Echo-Charset: ISO-8859-1"), latin1Form, framing, pieces));
      all.add(new EchoRequest("Latin-1 raw bytes, app sets ISO-8859-1" + f,
          "/echo", List.of(FORM, "X-Echo-Charset: ISO-8859-1"), latin1Raw, framing, pieces));
      all.add(new EchoRequest("form webhook read as raw bytes" + f,
          "/echo", List.of(FORM, "X-Echo-Read: body"), webhook, framing, pieces));
      all.add(new EchoRequest("form webhook, key in the query, read as raw bytes" + f,
          "/echo?account=42&username=q", List.of(FORM, "X-Echo-Read: body"),
          "event=paid".getBytes(StandardCharsets.US_ASCII), framing, pieces));
      all.add(new EchoRequest("form read through a reader, app sets UTF-8" + f,
          "/echo", List.of(FORM, "X-Echo-Read: reader", "X-Echo-Charset: UTF-8"), utf8Form,
          framing, pieces));
      all.add(new EchoRequest("JSON read as raw bytes" + f,
          "/echo?username=decoy", List.of("Content-Type: application/json", "X-Echo-Read: body"),
          json, framing, pieces));
      all.add(new EchoRequest("JSON read through a reader" + f,
          "/echo", List.of("Content-Type: application/json; charset=UTF-8",
              "X-Echo-Read: reader"), json, framing, pieces));
      all.add(new EchoRequest("multipart read as parts" + f,
          "/echo?username=decoy", List.of(multipartType, "X-Echo-Read: parts",
              "X-Echo-Charset: UTF-8"), multipart, framing, pieces));
      all.add(new EchoRequest("multipart read as parameters" + f,
          "/echo", List.of(multipartType, "X-Echo-Charset: UTF-8"), multipart, framing, pieces));
    }
    all.add(new EchoRequest("no body, a query only", "/echo?username=j%C3%BCrgen&x=1+2",
        List.of(client, "Content-Type: text/plain"), new byte[0], Framing.WHOLE, 1));
    return all;
  }

  private static byte[] multipart() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    String text = "--" + BOUNDARY + "\r\n"
        + "Content-Disposition: form-data; name=\"username\"\r\n\r\n"
        + "jürgen\r\n"
        + "--" + BOUNDARY + "\r\n"
        + "Content-Disposition: form-data; name=\"file\"; filename=\"a.bin\"\r\n"
        + "Content-Type: application/octet-stream\r\n\r\n";
    out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
    out.writeBytes(new byte[] {0, 1, 2, (byte) 0xfe, (byte) 0xff, '\r', '\n', '-', '-'});
    out.writeBytes(("\r\n--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("apps")
  void everyEchoIsTheSameWithAndWithoutTheAgent(String appName) throws Exception {
    assertTransparent(appName, "", forked(appName));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("wars")
  void everyEchoIsTheSameWithAndWithoutTheAgentOnAServer(String server) throws Exception {
    String war = server.substring(server.lastIndexOf(' ') + 1);
    // a WAR's paths, in the rules as in the requests, begin with its context path
    assertTransparent(war, "/" + war, deployed(server, dir.resolve("servers")));
  }

  private void assertTransparent(String appName, String contextPath, AppStarter app)
      throws Exception {
    List<EchoRequest> requests = requests();
    Map<String, String> without = echoes(app, null, contextPath, requests, new ArrayList<>());
    String echo = contextPath + "/echo";
    Path rules = RulesFiles.write(dir, "rules.yaml",
        "rules:",
        "  - { name: by-param, match: { path: " + echo + " }, key: 'param:username', limit: 1000, period: 1h }",
        "  - { name: by-query, match: { path: " + echo + " }, key: 'query:username', limit: 1000, period: 1h }",
        "  - { name: by-form, match: { path: " + echo + " }, key: 'form:username', limit: 1000, period: 1h }",
        "  - { name: by-ip-and-form, match: { path: " + echo + " }, key: [ip, 'form:username'], limit: 1000, period: 1h }",
        "  - { name: by-account, match: { path: " + echo + " }, key: 'param:account', key-fallback: ip, limit: 1000, period: 1h }",
        "  - { name: by-header, match: { path: " + echo + " }, key: 'header:X-Client', limit: 1000, period: 1h }",
        "  - { name: by-cookie, match: { path: " + echo + " }, key: 'cookie:sid', limit: 1000, period: 1h }",
        "  - { name: by-ip, match: { path: " + echo + " }, key: ip, limit: 1000, period: 1h }");
    List<String> agentLog = new ArrayList<>();
    Map<String, String> with = echoes(app, "config=" + rules + ",debug=true", contextPath, requests,
        agentLog);
    for (EchoRequest request : requests) {
      assertEquals(without.get(request.name), with.get(request.name),
          appName + ", " + request.name + ": the app read something else with the agent");
    }
    // the rules did run: the form's field keyed the form rule, once the app had read it
    String decided = SERVLET_READERS.contains(appName) ? "rule 'by-form'" : "rule 'by-ip'";
    assertTrue(agentLog.stream().anyMatch(l -> l.contains(decided)),
        "no decision by " + decided + " in the agent's log:\n" + String.join("\n", agentLog));
    assertTrue(agentLog.stream().noneMatch(l -> l.contains("ERROR")),
        "the agent logged an error:\n" + String.join("\n", agentLog));
  }

  private static Map<String, String> echoes(AppStarter starter, String agentArguments,
      String contextPath, List<EchoRequest> requests, List<String> agentLog) throws Exception {
    Map<String, String> out = new LinkedHashMap<>();
    try (RunningApp app = starter.start(agentArguments)) {
      for (EchoRequest request : requests) {
        RawHttp.Response response = RawHttp.send(app.port(), "POST",
            contextPath + request.target, request.headers, request.body, request.framing,
            request.pieces);
        assertEquals(200, response.status, request.name + ": " + response.text());
        out.put(request.name, response.text());
      }
      agentLog.addAll(app.agentLog());
    }
    return out;
  }
}
