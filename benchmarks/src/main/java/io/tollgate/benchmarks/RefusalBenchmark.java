package io.tollgate.benchmarks;

import io.tollgate.http.HttpExchange;
import io.tollgate.http.RefusalBody;
import io.tollgate.http.RefusalMessage;
import io.tollgate.http.RefusalResponse;
import io.tollgate.limiters.QuotaPolicy;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What writing a refusal costs once the engine has refused (issue 29 item 6: under a flood the
 * refusal is the common case): the refusal's value (its quota headers, its own headers and its
 * body) made and handed to the exchange, as {@code TollgateGate} does, for the same rule and {@code Retry-After} again and
 * again. The exchange only keeps what it is given, so the figure is Tollgate's part alone.
 *
 * <ul>
 *   <li>{@code body=problem}: an API client ({@code Accept: application/json}): the problem+json body;
 *   <li>{@code body=html}: a browser's {@code Accept}: the HTML page;
 *   <li>{@code body=template}: the operator's {@code response:} template with all its placeholders.
 * </ul>
 *
 * <p>Rerun: {@code java -jar benchmarks/target/benchmarks.jar RefusalBenchmark -prof gc}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@State(Scope.Thread)
public class RefusalBenchmark {

  private static final String FIREFOX =
      "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

  @Param({"problem", "html", "template"})
  public String body;

  private RefusalBody refusal;
  private KeptExchange exchange;
  private final QuotaPolicy policy = new QuotaPolicy(100, 60);

  @Setup
  public void setUp() {
    switch (body) {
      case "problem":
        refusal = RefusalBody.DEFAULT;
        exchange = new KeptExchange("application/json");
        break;
      case "html":
        refusal = RefusalBody.DEFAULT;
        exchange = new KeptExchange(FIREFOX);
        break;
      case "template":
        refusal = new RefusalBody(null, Arrays.asList(
            "{\"error\":\"slow down\",\"rule\":\"", "rule", "\",\"retryAfter\":", "retryAfter",
            ",\"limit\":", "limit", ",\"period\":\"", "period", "\"}"), "application/json");
        exchange = new KeptExchange(FIREFOX);
        break;
      default:
        throw new IllegalArgumentException("body: problem, html or template, got " + body);
    }
  }

  /** The quota headers of the refusal, as the engine puts them (the same every time). */
  private final String[] quota = {
    "RateLimit-Policy", "\"api-per-ip\";q=100;w=60", "RateLimit", "\"api-per-ip\";r=0;t=8"
  };

  @Benchmark
  public byte[] refuse() {
    long retryAfter = RefusalResponse.retryAfterSeconds(7_300_000_000L);
    boolean html = !refusal.hasTemplate()
        && RefusalResponse.prefersHtml(exchange.headerLines("Accept"));
    exchange.writeRefusal(
        refusal.message(false, "api-per-ip", retryAfter, policy, html, quota, quota.length));
    return exchange.body;
  }

  /** Keeps what a refusal writes; everything else a refusal does not read. */
  private static final class KeptExchange implements HttpExchange {
    private final List<String> accept;
    byte[] body;
    RefusalMessage refusal;

    KeptExchange(String accept) {
      this.accept = Collections.singletonList(accept);
    }

    @Override
    public List<String> headerLines(String name) {
      // a container makes a new String per request: so does this
      return name.equals("Accept")
          ? Collections.singletonList(new String(accept.get(0)))
          : Collections.emptyList();
    }

    @Override
    public void writeRefusal(RefusalMessage refusal) {
      this.refusal = refusal;
      this.body = refusal.body();
    }

    @Override
    public String method() {
      return "GET";
    }

    @Override
    public String rawPath() {
      return "/api";
    }

    @Override
    public String remoteAddress() {
      return "10.0.0.7";
    }

    @Override
    public String header(String name) {
      return name.equals("Accept") ? accept.get(0) : null;
    }

    @Override
    public String principalName() {
      return null;
    }

    @Override
    public String parameter(String name) {
      return null;
    }

    @Override
    public String cookie(String name) {
      return null;
    }

    @Override
    public String route() {
      return null;
    }

    @Override
    public void setResponseHeader(String name, String value) {}

    @Override
    public String responseHeader(String name) {
      return null;
    }
  }
}
