package io.tollgate.benchmarks;

import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.tollgate.config.RulesConfig;
import io.tollgate.config.RulesFileParser;
import io.tollgate.limiters.Clock;
import io.tollgate.outbound.OutboundCall;
import io.tollgate.outbound.OutboundDecision;
import io.tollgate.outbound.OutboundGate;
import io.tollgate.outbound.OutboundRules;
import io.tollgate.rules.RuleSetFactory;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What an outbound rule costs a call, beside Resilience4j's {@code RateLimiter} wrapped around the
 * same call by hand (what an application writes without the agent). The call itself is a few
 * nanoseconds of work ({@link #theCall}), so what is measured is the limiter.
 *
 * <ul>
 *   <li>{@code *Unpaced}: a limit far above the rate asked (a token bucket of 10^9 per 10 s; 10^8
 *       a second for Resilience4j): every call goes out at once; the cost of the decision
 *       (Tollgate: matching the destination, keying, the local store's bucket, the counters;
 *       Resilience4j: {@code acquirePermission} on its atomic limiter).
 *   <li>{@code *Paced}: 2,000 calls a second on one thread that asks faster: every call waits its
 *       turn; the time per call is the pacing interval (500 us) plus what the limiter adds to it.
 *       Tollgate's gcra books turns 500 us apart; Resilience4j refreshes 1 permission every 500 us.
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@State(Scope.Benchmark)
public class OutboundBenchmark {

  /** The call both limiters are asked about: the partner's API. */
  static final OutboundCall CALL = new OutboundCall() {
    @Override
    public String method() {
      return "GET";
    }

    @Override
    public String host() {
      return "api.partner.example";
    }

    @Override
    public int port() {
      return 443;
    }

    @Override
    public String path() {
      return "/v2/orders";
    }

    @Override
    public String header(String name) {
      return null;
    }
  };

  OutboundGate unpaced;
  OutboundGate paced;
  RateLimiter resilience4jUnpaced;
  RateLimiter resilience4jPaced;

  @Setup
  public void setUp() throws Exception {
    unpaced = gate("token-bucket", "1000000000", "10s", "1000000000", null);
    paced = gate("gcra", "2000", "1s", "1", "5s");
    resilience4jUnpaced = RateLimiter.of("unpaced", RateLimiterConfig.custom()
        .limitForPeriod(100_000_000).limitRefreshPeriod(Duration.ofSeconds(1))
        .timeoutDuration(Duration.ofSeconds(5)).build());
    resilience4jPaced = RateLimiter.of("paced", RateLimiterConfig.custom()
        .limitForPeriod(1).limitRefreshPeriod(Duration.ofNanos(500_000))
        .timeoutDuration(Duration.ofSeconds(5)).build());
  }

  private static OutboundGate gate(String algorithm, String limit, String period, String burst,
      String maxDelay) throws Exception {
    RulesConfig config = RulesFileParser.parse(String.join("\n",
        "rules: []",
        "outbound:",
        "  - name: partner-" + algorithm,
        "    match:",
        "      hosts: api.partner.example",
        "      path: /v2/**",
        "    algorithm: " + algorithm,
        "    limit: " + limit,
        "    period: " + period,
        "    burst: " + burst,
        maxDelay == null ? "" : "    max-delay: " + maxDelay,
        ""), "benchmark.yaml");
    RuleSetFactory factory = new RuleSetFactory(Clock.system());
    factory.build(config, null);
    OutboundGate gate = OutboundRules.build(config, null, factory);
    factory.applied();
    return gate;
  }

  /** The application's call: a few nanoseconds of work, the same for every variant. */
  private static int theCall(Blackhole bh) {
    bh.consume(CALL.path());
    return 200;
  }

  @Benchmark
  public int callAlone(Blackhole bh) {
    return theCall(bh);
  }

  @Benchmark
  public int tollgateUnpaced(Blackhole bh) {
    OutboundDecision decision = unpaced.beforeSend(CALL);
    return decision.send() ? theCall(bh) : 429;
  }

  @Benchmark
  public int resilience4jUnpaced(Blackhole bh) {
    return resilience4jUnpaced.acquirePermission() ? theCall(bh) : 429;
  }

  @Benchmark
  public int tollgatePaced(Blackhole bh) {
    OutboundDecision decision = paced.beforeSend(CALL);
    return decision.send() ? theCall(bh) : 429;
  }

  @Benchmark
  public int resilience4jPaced(Blackhole bh) {
    return resilience4jPaced.acquirePermission() ? theCall(bh) : 429;
  }
}
