package io.tollgate.benchmarks;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.tollgate.agent.FrameworkModules;
import io.tollgate.bootstrap.RequestGate;
import io.tollgate.bootstrap.TollgateBridge;
import io.tollgate.instrumentation.servlet.ServletModule;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.core.StandardContext;
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
 * What the agent's engine costs one request on its way through Tomcat, without the network: the
 * engine is called as the woven entry points call it, on Tomcat's own request and response objects
 * (a {@code RequestFacade} over a connector request over a coyote request for {@code GET /hello}
 * from 10.0.0.7, as Tomcat's HTTP processor fills them), and the request is made ready for the
 * next call the way Tomcat would leave it (the agent's mark removed, the response's headers
 * cleared).
 *
 * <ul>
 *   <li>{@code none}: only that reset, the floor to subtract;
 *   <li>{@code tollgate} with {@code rules=nomatch}: the first entry point, with one rule that does
 *       not match ({@code benchmarks/e2e-rules-nomatch.yaml});
 *   <li>{@code tollgate} with {@code rules=rule}: one rule that matches and allows
 *       ({@code benchmarks/e2e-rules.yaml}): key, decision, metrics and the two quota headers;
 *   <li>{@code tollgate} with {@code rules=rule-proxy}: the same rule behind one trusted proxy
 *       ({@code benchmarks/e2e-rules-proxy.yaml}), the request carrying {@code X-Forwarded-For}:
 *       the client's address read from the header;
 *   <li>{@code tollgate} with {@code rules=refused}: the same rule at one request an hour
 *       ({@code benchmarks/e2e-rules-refused.yaml}), so that every request after the first is
 *       refused: key, decision, metrics, the refusal log's and early retries' bookkeeping, and
 *       the 429 with its headers and problem+json body written to Tomcat's response (which is
 *       recycled for the next request, as Tomcat recycles it);
 *   <li>{@code tollgate} with {@code rules=rules-100} and {@code rules-10000}: that rule last
 *       in a file of 100 or 10,000 rules, the others one per tenant path ({@code /tenants/tI/**}):
 *       what a long rules file adds to a request that only one of its rules matches;
 *   <li>{@code tollgateRecycled}: {@link #tollgate} with every response recycled before the next
 *       request, as Tomcat recycles every response, the allowed one's too ({@code tollgate} only
 *       clears an allowed response's headers but recycles a refusal's): the refused and allowed
 *       cases reset alike; {@code noneRecycled} is its floor to subtract;
 *   <li>{@code tollgateLaterEntryPoint}: a filter or servlet after the first entry point of the
 *       same request (what every further filter in the chain costs);
 *   <li>{@code refusalWrittenByHand} with {@code rules=refused}: the refusal's own response
 *       written through the servlet API by hand, without a decision: the part of a refused
 *       request that writing any 429 costs;
 *   <li>{@code tollgateAnswered}: {@link #tollgateRecycled} with every request answered, as end
 *       to end: an allowed request followed by the hello servlet's own answer, a refused one by
 *       nothing more (its 429 is its answer), so that each writes one whole response: the even
 *       comparison of a refused request with an allowed one; {@code noneAnswered} (the hello
 *       answer alone, without the agent) is its floor;
 *   <li>{@code bucket4jFilter}: what the hand-written Bucket4j filter of the end-to-end benchmark
 *       does (path and method check, a bucket per address in a {@code ConcurrentHashMap}, one
 *       header);
 *   <li>{@code bucket4jFilterDraftHeaders}: the same filter sending the two headers the engine
 *       sends ({@code RateLimit-Policy} and {@code RateLimit}) instead of its one.
 * </ul>
 *
 * <p>Rerun: {@code java -jar benchmarks/target/benchmarks.jar RequestPathBenchmark -prof gc}
 * from the repository root (the rules files are read from {@code benchmarks/}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@State(Scope.Thread)
public class RequestPathBenchmark {

  @Param({"rule", "rule-proxy", "refused", "nomatch", "rules-100", "rules-10000"})
  public String rules;

  private Request connectorRequest;
  private Response connectorResponse;
  private HttpServletRequest request;
  private HttpServletResponse response;
  private static final int SERVLET = FrameworkModules.numberOf(ServletModule.class);

  private RequestGate gate;
  private ConcurrentMap<String, Bucket> buckets;

  @Setup
  public void setUp() {
    Connector connector = new Connector("HTTP/1.1");
    // the benchmark keeps its facades across the recycling of a refused request's response
    connector.setDiscardFacades(false);
    connectorRequest = connector.createRequest();
    org.apache.coyote.Request coyoteRequest = new org.apache.coyote.Request();
    byte[] uri = "/hello".getBytes(StandardCharsets.ISO_8859_1);
    coyoteRequest.requestURI().setBytes(uri, 0, uri.length);
    coyoteRequest.requestURI().getByteChunk().setCharset(StandardCharsets.ISO_8859_1);
    coyoteRequest.decodedURI().setString("/hello");
    coyoteRequest.method().setString("GET");
    coyoteRequest.remoteAddr().setString("10.0.0.7");
    coyoteRequest.getMimeHeaders().addValue("Host").setString("127.0.0.1:8080");
    if (rules.equals("rule-proxy")) {
      // behind one load balancer: the peer is the balancer, the client the address it writes
      coyoteRequest.getMimeHeaders().addValue("X-Forwarded-For").setString("203.0.113.7");
    }
    connectorRequest.setCoyoteRequest(coyoteRequest);
    // mapped to a web application with no listeners, as Tomcat's mapper leaves a request
    connectorRequest.getMappingData().context = new StandardContext();
    connectorResponse = connector.createResponse();
    org.apache.coyote.Response coyoteResponse = new org.apache.coyote.Response();
    // a refusal's body goes nowhere, as if the socket had taken it
    coyoteResponse.setOutputBuffer(new org.apache.coyote.OutputBuffer() {
      private long written;

      @Override
      public int doWrite(java.nio.ByteBuffer chunk) {
        int length = chunk.remaining();
        if (capturing != null) {
          byte[] bytes = new byte[length];
          chunk.get(bytes);
          capturing.write(bytes, 0, length);
        }
        chunk.position(chunk.limit());
        written += length;
        return length;
      }

      @Override
      public long getBytesWritten() {
        return written;
      }
    });
    connectorResponse.setCoyoteResponse(coyoteResponse);
    connectorRequest.setResponse(connectorResponse);
    connectorResponse.setRequest(connectorRequest);
    request = connectorRequest.getRequest();
    response = connectorResponse.getResponse();

    gate = EndToEndRules.engine(rules);
    buckets = new ConcurrentHashMap<>();
    if (rules.equals("refused")) {
      captureRefusal();
    }
  }

  /** What Tollgate wrote for a refused request: its status, headers, type and body. */
  private int refusalStatus;
  private String[] refusalHeaders;
  private String refusalContentType;
  private byte[] refusalBody;
  private ByteArrayOutputStream capturing;

  /**
   * Runs the rule of one request an hour twice, the second refused, and keeps what the refusal
   * wrote to Tomcat's response, for {@link #refusalWrittenByHand}.
   */
  private void captureRefusal() {
    try {
      gate.exit(SERVLET, gate.enter(SERVLET, request, response), null);
      resetForNextRequest();
      capturing = new ByteArrayOutputStream();
      gate.exit(SERVLET, gate.enter(SERVLET, request, response), null);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    refusalStatus = connectorResponse.getStatus();
    org.apache.tomcat.util.http.MimeHeaders headers =
        connectorResponse.getCoyoteResponse().getMimeHeaders();
    refusalHeaders = new String[2 * headers.size()];
    for (int i = 0; i < headers.size(); i++) {
      refusalHeaders[2 * i] = headers.getName(i).toString();
      refusalHeaders[2 * i + 1] = headers.getValue(i).toString();
    }
    refusalContentType = connectorResponse.getContentType();
    refusalBody = capturing.toByteArray();
    capturing = null;
    if (refusalStatus != 429 || refusalBody.length == 0) {
      throw new IllegalStateException("no refusal captured: status " + refusalStatus);
    }
    resetForNextRequest();
  }

  @Benchmark
  public void none() {
    resetForNextRequest();
  }

  @Benchmark
  public Object tollgate() throws Exception {
    Object scope = gate.enter(SERVLET, request, response);
    gate.exit(SERVLET, scope, null);
    resetForNextRequest();
    return scope;
  }

  /** {@link #resetAsTomcatRecycles} alone: the floor of {@link #tollgateRecycled}. */
  @Benchmark
  public void noneRecycled() {
    resetAsTomcatRecycles();
  }

  /**
   * {@link #tollgate}, reset as Tomcat resets every request: the response recycled whether it was
   * allowed or refused, so that a refused request and an allowed one are compared on the same
   * reset (in {@link #tollgate} only the refusal pays for Tomcat's recycling).
   */
  @Benchmark
  public Object tollgateRecycled() throws Exception {
    Object scope = gate.enter(SERVLET, request, response);
    gate.exit(SERVLET, scope, null);
    resetAsTomcatRecycles();
    return scope;
  }

  @Benchmark
  public Object tollgateLaterEntryPoint() throws Exception {
    Object first = gate.enter(SERVLET, request, response);
    Object later = gate.enter(SERVLET, request, response);
    gate.exit(SERVLET, later, null);
    gate.exit(SERVLET, first, null);
    resetForNextRequest();
    return later;
  }

  /**
   * With {@code rules=refused}: the very response a refusal writes (its status, headers, type and
   * body, taken from Tollgate's), written by hand through the servlet API and recycled as {@link
   * #tollgate} does, without deciding anything: what writing a 429 costs Tomcat whoever writes
   * it, the floor to subtract from the refused request.
   */
  @Benchmark
  public Object refusalWrittenByHand() throws IOException {
    if (refusalBody == null) {
      throw new IllegalStateException("only with rules=refused");
    }
    response.reset();
    response.setStatus(refusalStatus);
    for (int i = 0; i < refusalHeaders.length; i += 2) {
      response.setHeader(refusalHeaders[i], refusalHeaders[i + 1]);
    }
    response.setContentType(refusalContentType);
    response.setContentLength(refusalBody.length);
    response.getOutputStream().write(refusalBody);
    response.flushBuffer();
    resetForNextRequest();
    return response;
  }

  /**
   * {@link #tollgateRecycled} with every request answered: an allowed request (its response not
   * committed by the engine) followed by the hello servlet's answer ({@link #answerHello}), a
   * refused one by nothing more, since the engine wrote its whole 429. In {@code tollgate} and
   * {@code tollgateRecycled} only a refused request writes a response, so they compare a 429
   * against no response at all; end to end every request writes one.
   */
  @Benchmark
  public Object tollgateAnswered() throws Exception {
    Object scope = gate.enter(SERVLET, request, response);
    if (!response.isCommitted()) {
      answerHello();
    }
    gate.exit(SERVLET, scope, null);
    resetAsTomcatRecycles();
    return scope;
  }

  /** The hello servlet's answer alone, recycled as Tomcat does: the floor of {@link #tollgateAnswered}. */
  @Benchmark
  public Object noneAnswered() throws IOException {
    answerHello();
    resetAsTomcatRecycles();
    return response;
  }

  /** Not final: the servlet's body is a parameter it adds the line end to, not a constant. */
  private String helloBody = "hello";

  /**
   * What the end-to-end app's {@code GET /hello} servlet writes ({@code Servlets.text}: its
   * content type, then {@code body + "\n"} through the writer), committed by {@code flushBuffer}
   * as a refusal's 429 is (Tomcat's own end of request commits it the same way, through its
   * output buffer; its {@code finishResponse} needs the HTTP processor this benchmark has not).
   */
  private void answerHello() throws IOException {
    response.setContentType("text/plain;charset=UTF-8");
    response.getWriter().write(helloBody + "\n");
    response.flushBuffer();
  }

  @Benchmark
  public boolean bucket4jFilter() {
    ConsumptionProbe probe = bucket4jFilterDecides();
    boolean passed = probe != null && probe.isConsumed();
    if (passed) {
      response.setHeader("X-Rate-Limit-Remaining", Long.toString(probe.getRemainingTokens()));
    }
    resetForNextRequest();
    return passed;
  }

  /** What both filters do before their headers: match the path, take a token of the IP's bucket. */
  private ConsumptionProbe bucket4jFilterDecides() {
    if (!"/hello".equals(request.getRequestURI()) || !"GET".equals(request.getMethod())) {
      return null;
    }
    return buckets.computeIfAbsent(request.getRemoteAddr(), ip -> newBucket())
        .tryConsumeAndReturnRemaining(1);
  }

  /**
   * {@link #bucket4jFilter} sending the engine's two quota headers instead of its one: the same
   * {@code RateLimit-Policy} (a constant) and a {@code RateLimit} made per request from the
   * probe, as a hand-written filter that tells clients the draft's headers would, each set by
   * {@code setHeader} as a string. The comparison with {@link #tollgate} on the same headers:
   * Tomcat keeps these strings and turns them into bytes only at the commit, which this benchmark
   * does not run (the engine's are put in as bytes already), so this still leaves the filter a
   * conversion per header that a real response pays.
   */
  @Benchmark
  public boolean bucket4jFilterDraftHeaders() {
    ConsumptionProbe probe = bucket4jFilterDecides();
    boolean passed = probe != null && probe.isConsumed();
    if (passed) {
      response.setHeader("RateLimit-Policy", DRAFT_POLICY);
      // seconds until one more token: at least 1, as the draft's t is whole seconds
      long seconds = Math.max(1, (probe.getNanosToWaitForRefill() + 999_999_999L) / 1_000_000_000L);
      response.setHeader("RateLimit",
          "\"hello-never-refuses\";r=" + probe.getRemainingTokens() + ";t=" + seconds);
    }
    resetForNextRequest();
    return passed;
  }

  private static final String DRAFT_POLICY = "\"hello-never-refuses\";q=1000000000;w=1";

  /*
   * The cases followed by the commit: tollgateThenCommit, bucket4jFilterThenCommit and
   * bucket4jFilterDraftHeadersThenCommit (allowed requests only) are tollgate, bucket4jFilter and
   * bucket4jFilterDraftHeaders, each followed by what Tomcat's commit does with the headers they
   * left on the response (HeaderSerialiser): a header kept as a string is turned into bytes there,
   * one kept as bytes only copied, so the work a filter's setHeader leaves for later is counted.
   */

  /** Where the commit's header lines go, made on first use: {@link HeaderSerialiser}. */
  private HeaderSerialiser commit;

  /**
   * {@link #tollgate} for an allowed request, followed by the header lines Tomcat's commit writes
   * for the headers it left on the response.
   */
  @Benchmark
  public Object tollgateThenCommit() throws Exception {
    Object scope = gate.enter(SERVLET, request, response);
    gate.exit(SERVLET, scope, null);
    int written = serialiseHeaders();
    resetForNextRequest();
    return written;
  }

  /** {@link #bucket4jFilter}, followed by the header line Tomcat's commit writes. */
  @Benchmark
  public int bucket4jFilterThenCommit() {
    ConsumptionProbe probe = bucket4jFilterDecides();
    if (probe != null && probe.isConsumed()) {
      response.setHeader("X-Rate-Limit-Remaining", Long.toString(probe.getRemainingTokens()));
    }
    int written = serialiseHeaders();
    resetForNextRequest();
    return written;
  }

  /** {@link #bucket4jFilterDraftHeaders}, followed by the header lines Tomcat's commit writes. */
  @Benchmark
  public int bucket4jFilterDraftHeadersThenCommit() {
    ConsumptionProbe probe = bucket4jFilterDecides();
    if (probe != null && probe.isConsumed()) {
      response.setHeader("RateLimit-Policy", DRAFT_POLICY);
      long seconds = Math.max(1, (probe.getNanosToWaitForRefill() + 999_999_999L) / 1_000_000_000L);
      response.setHeader("RateLimit",
          "\"hello-never-refuses\";r=" + probe.getRemainingTokens() + ";t=" + seconds);
    }
    int written = serialiseHeaders();
    resetForNextRequest();
    return written;
  }

  /** The response's headers written as Tomcat's commit writes them; the bytes written. */
  private int serialiseHeaders() {
    if (commit == null) {
      commit = new HeaderSerialiser(connectorResponse.getCoyoteResponse());
    }
    return commit.writeHeadersOf(connectorResponse.getCoyoteResponse().getMimeHeaders());
  }

  /**
   * Tomcat's HTTP/1.1 output buffer doing the part of its commit ({@code prepareResponse}) that
   * depends on how a header was set: {@code sendHeader} for each header on the response, into its
   * header buffer (a value kept as a string is encoded there, {@code MessageBytes.toBytes}, and
   * checked for control characters; one kept as bytes is copied). The status line and Tomcat's
   * own headers, the same whoever set the others, are left out, and so is the socket.
   */
  static final class HeaderSerialiser extends org.apache.coyote.http11.Http11OutputBuffer {

    HeaderSerialiser(org.apache.coyote.Response response) {
      super(response, 8 * 1024);
    }

    int writeHeadersOf(org.apache.tomcat.util.http.MimeHeaders headers) {
      headerBuffer.clear();
      for (int i = 0, n = headers.size(); i < n; i++) {
        sendHeader(headers.getName(i), headers.getValue(i));
      }
      return headerBuffer.position();
    }
  }

  private void resetForNextRequest() {
    // the agent's mark, gone as Tomcat's recycling clears a request's attributes and notes: an
    // attribute up to h-mark, a note since
    connectorRequest.removeAttribute(TollgateBridge.DECIDED_ATTRIBUTE);
    connectorRequest.removeNote(TollgateBridge.DECIDED_ATTRIBUTE);
    if (connectorResponse.isCommitted()) {
      // a refusal was written: Tomcat recycles the response before the next request
      connectorResponse.recycle();
      connectorResponse.getCoyoteResponse().recycle();
      return;
    }
    connectorResponse.getCoyoteResponse().getMimeHeaders().clear();
  }

  /**
   * The request's mark removed as {@link #resetForNextRequest} does, and the response recycled
   * whatever it was, as Tomcat's processor recycles every response (its connector response, then
   * the coyote one) once the request is over.
   */
  private void resetAsTomcatRecycles() {
    connectorRequest.removeAttribute(TollgateBridge.DECIDED_ATTRIBUTE);
    connectorRequest.removeNote(TollgateBridge.DECIDED_ATTRIBUTE);
    connectorResponse.recycle();
    connectorResponse.getCoyoteResponse().recycle();
  }

  private static Bucket newBucket() {
    return Bucket.builder()
        .addLimit(
            Bandwidth.builder()
                .capacity(1_000_000_000L)
                .refillGreedy(1_000_000_000L, Duration.ofSeconds(1))
                .build())
        .build();
  }
}
