package io.tollgate.it;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The outbound rules the partner ITs share ({@code OutboundClientIT}, {@code
 * OutboundLibrariesPartnerIT}, {@code OutboundSpringPartnerIT}, {@code OutboundJaxRsPartnerIT}),
 * one per path of the {@code PartnerStub}, so that every client is held to the same rules:
 *
 * <ul>
 *   <li>{@code paced} ({@code /paced/**}): a gcra of 6 a second, burst 1, under the partner's
 *       hard limit of {@link #PARTNER_LIMIT}. Not 10: a call leaves the agent on time, but a busy
 *       machine (a 2-core CI beside other builds, load 30) may delay one and not the next, and at 8
 *       a second such jitter once put 11 calls into one of the partner's seconds; at 6 it would
 *       take four calls bunched by the machine. {@code max-delay} 15 s lets a burst of 60 (three
 *       instances of 20) wait its turn.
 *   <li>{@code fails} ({@code /fails/**}): {@code on-limit: fail}, a few an hour.
 *   <li>{@code honours} ({@code /honours/**}): room for every call, so that only a partner's
 *       {@code Retry-After} holds them.
 * </ul>
 */
final class PartnerRules {

  /** The partner's hard limit a second, as its {@code PartnerStub} counts. */
  static final int PARTNER_LIMIT = 10;

  private PartnerRules() {}

  /** The {@code paced} rule, with {@code extra} settings (e.g. {@code on-failure: local}). */
  static List<String> paced(String... extra) {
    List<String> lines = new ArrayList<>(List.of(
        "  - name: paced",
        "    match:",
        "      hosts: 127.0.0.1",
        "      path: /paced/**",
        "    algorithm: gcra",
        "    limit: 6",
        "    period: 1s",
        "    burst: 1",
        "    max-delay: 15s",
        "    max-wait: 16s"));
    for (String setting : extra) {
      lines.add("    " + setting);
    }
    return lines;
  }

  /** The {@code fails} rule: {@code limit} calls an hour, then each fails at once. */
  static List<String> fails(int limit) {
    return List.of(
        "  - name: fails",
        "    match:",
        "      hosts: 127.0.0.1",
        "      path: /fails/**",
        "    limit: " + limit,
        "    period: 1h",
        "    on-limit: fail");
  }

  /** The {@code honours} rule: 1,000 a second, waiting at most 5 s for a partner's wait. */
  static List<String> honours() {
    return List.of(
        "  - name: honours",
        "    match:",
        "      hosts: 127.0.0.1",
        "      path: /honours/**",
        "    limit: 1000",
        "    period: 1s",
        "    max-wait: 5s");
  }

  /** The lines that put the file's rules on {@code redisUri}. */
  static List<String> onRedis(String redisUri) {
    return List.of("backend: redis", "redis:", "  uri: " + redisUri, "  timeout: 2s");
  }

  /** A rules file {@code name} in {@code dir}: {@code head}, no inbound rules, then the rules. */
  @SafeVarargs
  static Path write(Path dir, String name, List<String> head, List<String>... outbound)
      throws IOException {
    List<String> lines = new ArrayList<>(head);
    lines.add("rules: []");
    lines.add("outbound:");
    Arrays.stream(outbound).forEach(lines::addAll);
    return RulesFiles.write(dir, name, lines.toArray(new String[0]));
  }
}
