package io.tollgate.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Rules files written for one test. */
final class RulesFiles {

  private RulesFiles() {}

  static Path write(Path dir, String name, String... lines) throws IOException {
    Path file = dir.resolve(name);
    Files.write(file, String.join("\n", lines).concat("\n").getBytes(StandardCharsets.UTF_8));
    return file;
  }

  /** GET /hello limited to {@code limit} a minute per client address. */
  static Path helloPerIp(Path dir, int limit) throws IOException {
    return write(
        dir,
        "rules.yaml",
        "rules:",
        "  - name: hello-per-ip",
        "    match:",
        "      path: /hello",
        "      methods: [GET]",
        "    key: ip",
        "    limit: " + limit,
        "    period: 1m");
  }
}
