package io.tollgate.diagnostics.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.tollgate.limiters.AdaptiveConcurrency;
import io.tollgate.logging.AgentLog;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.ToLongFunction;

/**
 * The Prometheus text format (version 0.0.4) at {@code http://HOST:PORT/metrics}, on its own port
 * with the JDK's {@code com.sun.net.httpserver}: no dependency, and nothing shared with the
 * application's web server.
 *
 * <p>Enabled by the {@code metrics-port} setting ({@code -javaagent:...=metrics-port=9464},
 * {@code -Dtollgate.metrics-port}, {@code TOLLGATE_METRICS_PORT}); it binds {@code metrics-host},
 * 127.0.0.1 unless set, so that the counts (and the heaviest keys) are not published to the
 * network by accident. Every thread it runs is a daemon: it never keeps the JVM alive.
 */
public final class PrometheusExporter {

  public static final String DEFAULT_HOST = "127.0.0.1";
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private static volatile HttpServer server;

  private PrometheusExporter() {}

  /**
   * Starts the endpoint when {@code port} is set; logs and carries on when it cannot. Returns at
   * once: the server starts on a daemon thread (so that the JDK's dispatcher thread, which
   * inherits the daemon flag from its creator, is a daemon too).
   */
  public static synchronized void startIfConfigured(String port, String host) {
    if (port == null || port.trim().isEmpty() || server != null) {
      return;
    }
    int number;
    try {
      number = Integer.parseInt(port.trim());
      if (number < 0 || number > 65535) {
        throw new NumberFormatException();
      }
    } catch (NumberFormatException e) {
      AgentLog.warn("metrics-port must be a port number (0-65535), got '" + port
          + "'; the Prometheus endpoint is off");
      return;
    }
    String bindHost = host == null || host.trim().isEmpty() ? DEFAULT_HOST : host.trim();
    Thread starter = new Thread(() -> start(bindHost, number), "tollgate-metrics-start");
    starter.setDaemon(true);
    starter.start();
  }

  private static void start(String host, int port) {
    try {
      HttpServer http = HttpServer.create(new InetSocketAddress(host, port), 16);
      ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "tollgate-metrics");
        t.setDaemon(true);
        return t;
      });
      http.setExecutor(executor);
      http.createContext("/metrics", PrometheusExporter::handle);
      http.start();
      server = http;
      AgentLog.info("Prometheus metrics at http://" + host + ":" + http.getAddress().getPort()
          + "/metrics");
    } catch (Throwable t) {
      AgentLog.warn("cannot serve Prometheus metrics on " + host + ":" + port + ": " + t);
    }
  }

  private static void handle(HttpExchange exchange) throws IOException {
    try {
      if (!"GET".equals(exchange.getRequestMethod()) && !"HEAD".equals(exchange.getRequestMethod())) {
        exchange.getResponseHeaders().set("Allow", "GET, HEAD");
        exchange.sendResponseHeaders(405, -1);
        return;
      }
      byte[] body = (render(TollgateMetrics.all()) + OutboundMetrics.render(OutboundMetrics.all()))
          .getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
      if ("HEAD".equals(exchange.getRequestMethod())) {
        exchange.sendResponseHeaders(200, -1);
        return;
      }
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    } finally {
      exchange.close();
    }
  }

  /** The exposition text for these rules. */
  static String render(List<RuleMetrics> rules) {
    StringBuilder out = new StringBuilder(1024);
    counter(out, rules, "tollgate_rule_allowed_total", "Requests the rule let through.", 0);
    counter(out, rules, "tollgate_rule_refused_total", "Requests the rule refused with 429.", 1);
    counter(out, rules, "tollgate_rule_would_refuse_total",
        "Requests a shadow-mode rule would have refused (they passed).", 2);
    counter(out, rules, "tollgate_rule_backend_errors_total",
        "Decisions the backend could not make; the rule's on-failure applied.", 3);
    counter(out, rules, "tollgate_early_retries_total",
        "Requests refused again before the Retry-After their key was last given had elapsed.", 4);

    out.append("# HELP tollgate_rule_decision_seconds Time to decide the requests the rule took part in.\n");
    out.append("# TYPE tollgate_rule_decision_seconds summary\n");
    for (RuleMetrics rule : rules) {
      String label = "{rule=\"" + escape(rule.getRule()) + "\"}";
      out.append("tollgate_rule_decision_seconds_count").append(label).append(' ')
          .append(rule.getDecisions()).append('\n');
      out.append("tollgate_rule_decision_seconds_sum").append(label).append(' ')
          .append(seconds(rule.getDecisionNanosTotal())).append('\n');
    }
    out.append("# HELP tollgate_rule_decision_seconds_max The longest decision since start.\n");
    out.append("# TYPE tollgate_rule_decision_seconds_max gauge\n");
    for (RuleMetrics rule : rules) {
      out.append("tollgate_rule_decision_seconds_max{rule=\"").append(escape(rule.getRule()))
          .append("\"} ").append(seconds(rule.getDecisionNanosMax())).append('\n');
    }

    adaptiveGauges(out, rules);
    leaseCounters(out, rules);

    out.append("# HELP tollgate_rule_refused_key_requests The keys refused (or would-refuse) most")
        .append(" often per rule, at most ").append(RuleMetrics.TOP_KEYS)
        .append(" (Space-Saving estimate; keys truncated, secrets already hashed).\n");
    out.append("# TYPE tollgate_rule_refused_key_requests gauge\n");
    for (RuleMetrics rule : rules) {
      List<HeavyKeys.Entry> top = rule.topRefusedKeys();
      for (int i = 0; i < top.size(); i++) {
        HeavyKeys.Entry entry = top.get(i);
        out.append("tollgate_rule_refused_key_requests{rule=\"").append(escape(rule.getRule()))
            .append("\",rank=\"").append(i + 1)
            .append("\",key=\"").append(escape(entry.key)).append("\"} ")
            .append(entry.count).append('\n');
      }
    }
    return out.toString();
  }

  /** The gauges of the adaptive-concurrency rules; nothing when there are none. */
  private static void adaptiveGauges(StringBuilder out, List<RuleMetrics> rules) {
    List<String[]> rows = new java.util.ArrayList<>();
    for (RuleMetrics rule : rules) {
      AdaptiveConcurrency.State s = TollgateMetrics.adaptiveState(rule.getRule());
      if (s != null) {
        rows.add(new String[] {
          escape(rule.getRule()),
          Integer.toString(s.limit()),
          Integer.toString(s.inFlight()),
          seconds(s.noLoadLatencyNanos()),
          seconds(s.recentLatencyNanos())
        });
      }
    }
    if (rows.isEmpty()) {
      return;
    }
    String[][] gauges = {
      {"tollgate_adaptive_limit", "The adaptive-concurrency limit of requests in flight now."},
      {"tollgate_adaptive_in_flight", "Requests in flight under an adaptive-concurrency rule."},
      {"tollgate_adaptive_no_load_latency_seconds",
          "The no-load latency an adaptive-concurrency rule compares with (measured by its probes)."},
      {"tollgate_adaptive_recent_latency_seconds",
          "The mean latency of an adaptive-concurrency rule's last window."},
    };
    for (int g = 0; g < gauges.length; g++) {
      out.append("# HELP ").append(gauges[g][0]).append(' ').append(gauges[g][1]).append('\n');
      out.append("# TYPE ").append(gauges[g][0]).append(" gauge\n");
      for (String[] row : rows) {
        out.append(gauges[g][0]).append("{rule=\"").append(row[0]).append("\"} ")
            .append(row[g + 1]).append('\n');
      }
    }
  }

  /** One counter of the leasing rules: its name, its help, how it is read. */
  private static final class LeaseCounter {
    final String name;
    final String help;
    final ToLongFunction<LeaseCounts> reader;

    LeaseCounter(String name, String help, ToLongFunction<LeaseCounts> reader) {
      this.name = name;
      this.help = help;
      this.reader = reader;
    }
  }

  private static final List<LeaseCounter> LEASE_COUNTERS = List.of(
      new LeaseCounter("tollgate_rule_lease_allowed_total",
          "Requests allowed from a lease's tokens held here, without a round trip (lease-tokens).",
          LeaseCounts::allowedFromLease),
      new LeaseCounter("tollgate_rule_lease_redis_decisions_total",
          "Requests of a leasing rule decided by Redis in a call of their own.",
          LeaseCounts::decidedByRedis),
      new LeaseCounter("tollgate_rule_leases_total",
          "Leases of lease-tokens tokens Redis granted this instance.", LeaseCounts::leases),
      new LeaseCounter("tollgate_rule_leases_ahead_total",
          "Leases asked for ahead of need, in the background.", LeaseCounts::leasesAhead),
      new LeaseCounter("tollgate_rule_lease_waits_total",
          "Requests that found no leased token while a lease was on its way, and waited for it.",
          LeaseCounts::waitedForLease),
      new LeaseCounter("tollgate_rule_lease_share_decisions_total",
          "Requests decided by the rule's local share: the lease they waited for was later than"
              + " the backend's timeout.",
          LeaseCounts::decidedByShare),
      new LeaseCounter("tollgate_rule_lease_tokens_total",
          "Tokens leases brought to this instance to hand out.", LeaseCounts::tokensLeased),
      new LeaseCounter("tollgate_rule_lease_tokens_unused_total",
          "Leased tokens given up unused: their second ran out (not those of a key gone quiet).",
          LeaseCounts::tokensUnused),
      new LeaseCounter("tollgate_rule_leases_lost_total",
          "Leases that added nothing although Redis may have taken their tokens: failed, or"
              + " answered after their second.",
          LeaseCounts::leasesLost));

  /** The counters of the rules that lease tokens from Redis; nothing when none does. */
  private static void leaseCounters(StringBuilder out, List<RuleMetrics> rules) {
    List<RuleMetrics> leasing = new ArrayList<>();
    for (RuleMetrics rule : rules) {
      if (TollgateMetrics.leases(rule.getRule()) != null) {
        leasing.add(rule);
      }
    }
    if (leasing.isEmpty()) {
      return;
    }
    out.append("# HELP tollgate_rule_lease_size The tokens one lease takes (lease-tokens).\n");
    out.append("# TYPE tollgate_rule_lease_size gauge\n");
    for (RuleMetrics rule : leasing) {
      LeaseCounts leases = TollgateMetrics.leases(rule.getRule());
      if (leases != null) {
        out.append("tollgate_rule_lease_size{rule=\"").append(escape(rule.getRule())).append("\"} ")
            .append(leases.leaseTokens()).append('\n');
      }
    }
    for (LeaseCounter counter : LEASE_COUNTERS) {
      out.append("# HELP ").append(counter.name).append(' ').append(counter.help).append('\n');
      out.append("# TYPE ").append(counter.name).append(" counter\n");
      for (RuleMetrics rule : leasing) {
        LeaseCounts leases = TollgateMetrics.leases(rule.getRule());
        if (leases != null) {
          out.append(counter.name).append("{rule=\"").append(escape(rule.getRule())).append("\"} ")
              .append(counter.reader.applyAsLong(leases)).append('\n');
        }
      }
    }
  }

  private static void counter(
      StringBuilder out, List<RuleMetrics> rules, String name, String help, int which) {
    out.append("# HELP ").append(name).append(' ').append(help).append('\n');
    out.append("# TYPE ").append(name).append(" counter\n");
    for (RuleMetrics rule : rules) {
      long value;
      switch (which) {
        case 0:
          value = rule.getAllowed();
          break;
        case 1:
          value = rule.getRefused();
          break;
        case 2:
          value = rule.getWouldRefuse();
          break;
        case 4:
          value = rule.getEarlyRetries();
          break;
        default:
          value = rule.getBackendErrors();
          break;
      }
      out.append(name).append("{rule=\"").append(escape(rule.getRule())).append("\"} ")
          .append(value).append('\n');
    }
  }

  private static String seconds(long nanos) {
    return String.format(Locale.ROOT, "%.9f", nanos / 1e9);
  }

  static String escape(String value) {
    StringBuilder out = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\\' || c == '"') {
        out.append('\\').append(c);
      } else if (c == '\n') {
        out.append("\\n");
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
