package io.tollgate.benchmarks;

import io.tollgate.agent.FrameworkModules;
import io.tollgate.bootstrap.RequestGate;
import io.tollgate.instrumentation.grizzly.GrizzlyModule;
import io.tollgate.instrumentation.jaxrs.jersey.JerseyModule;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.TimeUnit;
import javax.ws.rs.core.Response;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.http.HttpRequestPacket;
import org.glassfish.grizzly.http.server.Request;
import org.glassfish.jersey.internal.MapPropertiesDelegate;
import org.glassfish.jersey.server.ContainerRequest;
import org.glassfish.jersey.server.ContainerResponse;
import org.glassfish.jersey.server.internal.process.RequestProcessingContext;
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
 * What the agent's engine costs one request that Jersey serves on Grizzly (no servlet container),
 * without the network: the engine is called as the woven entry points call it, on Grizzly's and
 * Jersey's own objects for {@code GET /hello} from 10.0.0.7 (Grizzly's request, Jersey's
 * {@code ContainerRequest} in a {@code RequestProcessingContext}, and the resource's {@code
 * ContainerResponse}), and the request is made ready for the next call (the agent's property
 * removed). Jersey 2 ({@code javax.ws.rs}); Jersey 3 and later differ only in the namespace.
 *
 * <ul>
 *   <li>{@code none}: only that reset, the floor to subtract;
 *   <li>{@code tollgate} with {@code rules=nomatch}: one rule that does not match;
 *   <li>{@code tollgate} with {@code rules=rule}: one rule that matches and allows: key,
 *       decision, metrics, and the two quota headers set on Jersey's response.
 * </ul>
 *
 * <p>Rerun: {@code java -jar benchmarks/target/benchmarks.jar JerseyPathBenchmark -prof gc} from
 * the repository root (the rules files are read from {@code benchmarks/}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@State(Scope.Thread)
public class JerseyPathBenchmark {

  /** The property the engine marks a decided request with (RequestScope.HANDLER_DECIDED_MARK). */
  private static final String DECIDED = "io.tollgate.route-decided";

  @Param({"rule", "nomatch"})
  public String rules;

  private Request grizzlyRequest;
  private ContainerRequest containerRequest;
  private RequestProcessingContext processingContext;
  private ContainerResponse containerResponse;
  private static final int JERSEY = FrameworkModules.numberOf(JerseyModule.class);
  private static final int GRIZZLY = FrameworkModules.numberOf(GrizzlyModule.class);

  private RequestGate gate;

  @Setup
  public void setUp() throws Exception {
    HttpRequestPacket packet =
        HttpRequestPacket.builder().method("GET").uri("/hello").protocol("HTTP/1.1").build();
    // the peer as Grizzly's connection reports it; the packet keeps its address once read
    Connection<?> connection = peerAt(new InetSocketAddress("10.0.0.7", 50_000));
    packet.setConnection(connection);
    grizzlyRequest = Request.create();
    grizzlyRequest.initialize(packet, FilterChainContext.create(connection), null);
    containerRequest =
        new ContainerRequest(
            URI.create("http://127.0.0.1:8080/"), URI.create("http://127.0.0.1:8080/hello"), "GET",
            null, new MapPropertiesDelegate(), null);
    processingContext = new RequestProcessingContext(null, containerRequest, null, null, null);
    containerResponse = new ContainerResponse(containerRequest, Response.ok("Hello").build());

    gate = EndToEndRules.engine(rules);
    tollgate();
    if (containerResponse.getHeaders().containsKey("RateLimit") != rules.equals("rule")) {
      throw new IllegalStateException("the engine did not decide as " + rules + " expects");
    }
  }

  @Benchmark
  public void none() {
    resetForNextRequest();
  }

  @Benchmark
  public Object tollgate() throws Exception {
    Object served = gate.enter(GRIZZLY, grizzlyRequest, null);
    Object decision = gate.enter(JERSEY, processingContext, null);
    gate.returned(JERSEY, decision, containerResponse);
    gate.exit(GRIZZLY, served, null);
    resetForNextRequest();
    return decision;
  }

  private static Connection<?> peerAt(InetSocketAddress peer) {
    return (Connection<?>)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) -> {
              switch (method.getName()) {
                case "getPeerAddress":
                  return peer;
                case "isBlocking":
                  return false;
                default:
                  throw new UnsupportedOperationException(method.getName());
              }
            });
  }

  private void resetForNextRequest() {
    containerRequest.removeProperty(DECIDED);
  }
}
