package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.it.RawHttp.Framing;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Rules keyed by a form field, over HTTP: the key is the field the application reads, decided
 * when it reads it. A decoy of the field in the query string chooses nothing; a name in UTF-8
 * arrives intact when the application sets UTF-8 after the agent's first entry point; a body read
 * as raw bytes arrives whole, while the query string still keys the request.
 */
class FormFieldKeysIT {

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"servlet-jakarta", "servlet-javax", "servlet-jetty9", "spring-boot3"})
  void aLoginKeyedByTheFormFieldIsRefusedAfterTheLimitWhateverTheQueryStringSays(String appName)
      throws Exception {
    Path rules = RulesFiles.write(dir, "rules.yaml",
        "rules:",
        "  - name: login-by-user",
        "    match: { path: /login, methods: [POST] }",
        "    key: form:username",
        "    limit: 3",
        "    period: 1h",
        "  - name: echo-by-user",
        "    match: { path: /echo }",
        "    key: [ip, form:username]",
        "    limit: 2",
        "    period: 1h",
        "  - name: webhook-by-account",
        "    match: { path: /echo }",
        "    key: param:account",
        "    limit: 2",
        "    period: 1h");
    try (ForkedApp app =
        ForkedApp.app(appName).on(Jdk.current()).withAgent("config=" + rules).start()) {
      // each guess with another decoy in the query string: all count against admin
      List<Integer> guesses = new ArrayList<>();
      for (int i = 1; i <= 5; i++) {
        guesses.add(form(app, "/login?username=decoy" + i,
            "username=admin&password=wrong", List.of()).status);
      }
      assertEquals(List.of(401, 401, 401, 429, 429), guesses);
      RawHttp.Response refused =
          form(app, "/login?username=decoy9", "username=admin&password=wrong", List.of());
      assertTrue(refused.text().contains("login-by-user"), refused.text());
      // another user, with admin as the decoy, still has all of their tries
      assertEquals(401, form(app, "/login?username=admin", "username=bob&password=wrong",
          List.of()).status);

      // jürgen, in UTF-8, read by an application that sets UTF-8 after the agent's first entry
      List<String> jurgen = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        RawHttp.Response echo = form(app, "/echo", "username=j%C3%BCrgen&password=x",
            List.of("X-Echo-Charset: UTF-8"));
        jurgen.add(echo.status + (echo.status == 200
            ? " " + line(echo.text(), "param username") + " " + line(echo.text(), "charset")
            : ""));
      }
      assertEquals(List.of(
          "200 param username: j\\u00fcrgen charset: UTF-8",
          "200 param username: j\\u00fcrgen charset: UTF-8",
          "429"), jurgen);

      // a webhook that reads its raw body: keyed by the query string, its body arrives whole
      List<String> webhook = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        RawHttp.Response echo = form(app, "/echo?account=42", "event=paid&sig=abc",
            List.of("X-Echo-Read: body"));
        webhook.add(echo.status + (echo.status == 200 ? " " + line(echo.text(), "body-hex") : ""));
      }
      String hex = "body-hex: " + hex("event=paid&sig=abc");
      assertEquals(List.of("200 " + hex, "200 " + hex, "429"), webhook);
      // the refusals thrown into the app's reads were caught by the first entry point: neither
      // the container nor the framework saw one escape
      for (String line : app.output()) {
        assertTrue(!line.contains("RefusedWhileReading") && !line.contains("SEVERE"),
            "a refusal escaped: " + line + "\n" + String.join("\n", app.output()));
      }
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  private static RawHttp.Response form(ForkedApp app, String target, String body,
      List<String> headers) throws Exception {
    List<String> all = new ArrayList<>(headers);
    all.add("Content-Type: application/x-www-form-urlencoded");
    return RawHttp.send(app.port(), "POST", target, all,
        body.getBytes(StandardCharsets.US_ASCII), Framing.WHOLE, 1);
  }

  private static String hex(String text) {
    StringBuilder s = new StringBuilder();
    for (byte b : text.getBytes(StandardCharsets.US_ASCII)) {
      s.append(String.format("%02x", b));
    }
    return s.toString();
  }

  private static String line(String echo, String name) {
    for (String line : echo.split("\n")) {
      if (line.startsWith(name + ":")) {
        return line;
      }
    }
    return "(no " + name + ")";
  }
}
