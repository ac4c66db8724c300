package io.tollgate.instrumentation.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.outbound.OutboundDecision;
import io.tollgate.testing.partner.PartnerStub;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.apache.hc.client5.http.async.methods.SimpleHttpRequest;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.async.methods.SimpleRequestBuilder;
import org.apache.hc.client5.http.async.methods.SimpleRequestProducer;
import org.apache.hc.client5.http.async.methods.SimpleResponseConsumer;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.nio.AsyncResponseConsumer;
import org.apache.hc.core5.http.nio.CapacityChannel;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.util.EntityUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.http.client.OkHttp3ClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

/**
 * The clients' woven sends, run for real against a partner on loopback: each call of the app is
 * decided once, as the rules see it ({@code METHOD host:port/path} and the app's header), a failed
 * one reaches neither the partner nor the rules' answer and fails as the client fails, and the
 * partner's answer is learnt. The client's own retries and redirects happen below the send: they
 * are not decided again.
 */
class WovenClientsTest {

  private static final RecordingLimiter RULES = new RecordingLimiter();
  private static PartnerStub partner;
  private static CloseableHttpClient apache4;
  private static org.apache.hc.client5.http.impl.classic.CloseableHttpClient apache5;
  private static CloseableHttpAsyncClient apache5Async;
  private static OkHttpClient okHttp;

  @BeforeAll
  static void weaveTheClients() throws Exception {
    WovenClients.install(RULES);
    partner = PartnerStub.start(1000, Duration.ofSeconds(1));
    apache4 = HttpClients.createDefault();
    apache5 = org.apache.hc.client5.http.impl.classic.HttpClients.createDefault();
    apache5Async = HttpAsyncClients.createDefault();
    apache5Async.start();
    okHttp = new OkHttpClient();
  }

  @AfterAll
  static void unweave() throws Exception {
    WovenClients.uninstall();
    partner.close();
    apache4.close();
    apache5.close();
    apache5Async.close();
    okHttp.dispatcher().executorService().shutdown();
  }

  @BeforeEach
  void reset() {
    RULES.reset();
    partner.reset();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"apache4", "apache5", "apache5-async", "okhttp", "okhttp-async"})
  void eachCallIsDecidedOnceAndItsAnswerLearnt(String client) throws Exception {
    assertEquals(200, call(client, "/orders?id=1"));
    assertEquals(List.of("GET 127.0.0.1:" + partner.port() + "/orders X-Tenant=acme"),
        RULES.decided);
    assertEquals(List.of("200 Retry-After=null"), RULES.answers);
    assertEquals(1, partner.accepted());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"apache4", "apache5", "apache5-async", "okhttp", "okhttp-async"})
  void aFailedCallFailsAsTheClientFailsAndNeverReachesThePartner(String client) {
    RULES.decision = OutboundDecision.fail("partner-limit", 3);
    Exception failure = assertThrows(Exception.class, () -> call(client, "/orders"));
    Throwable cause = failure instanceof ExecutionException ? failure.getCause() : failure;
    assertInstanceOf(IOException.class, cause);
    assertTrue(cause.getMessage().contains("'partner-limit'"), cause.getMessage());
    assertEquals(1, RULES.decided.size());
    assertEquals(List.of(), RULES.answers, "nothing sent, nothing learnt");
    assertEquals(0, partner.accepted() + partner.refused());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"apache4", "apache5", "apache5-async", "okhttp", "okhttp-async"})
  void withoutOutboundRulesNothingIsRead(String client) throws Exception {
    RULES.active = false;
    assertEquals(200, call(client, "/orders"));
    assertEquals(List.of(), RULES.decided);
    assertEquals(List.of(), RULES.answers);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
    // client     | the app gets | the rules learn       | the partner saw
    "apache4      | 429          | 429 Retry-After=1     | 1",
    // HttpClient 5 retries a 429 once, after its Retry-After, below the send: one call
    "apache5      | 200          | 200 Retry-After=null  | 2",
    "apache5-async | 200         | 200 Retry-After=null  | 2",
    "okhttp       | 429          | 429 Retry-After=1     | 1",
    "okhttp-async | 429          | 429 Retry-After=1     | 1",
  })
  void thePartnersRefusalIsLearnt(String client, int status, String learnt, int requests)
      throws Exception {
    partner.refuseNext(1, 1);
    assertEquals(status, call(client, "/orders"));
    assertEquals(1, RULES.decided.size(), "decided once");
    assertEquals(List.of(learnt), RULES.answers);
    assertEquals(requests, partner.accepted() + partner.refused());
  }

  @Test
  void aFailedAsyncApache5CallFailsTheAppsCallbackAsWellAsItsFuture() throws Exception {
    RULES.decision = OutboundDecision.fail("partner-limit", 3);
    CompletableFuture<Exception> told = new CompletableFuture<>();
    FutureCallback<SimpleHttpResponse> callback = new FutureCallback<>() {
      @Override
      public void completed(SimpleHttpResponse response) {
        told.complete(null);
      }

      @Override
      public void failed(Exception failure) {
        told.complete(failure);
      }

      @Override
      public void cancelled() {
        told.complete(null);
      }
    };
    Future<SimpleHttpResponse> future =
        apache5Async.execute(SimpleRequestBuilder.get(partner.url("/orders")).build(), callback);
    assertTrue(future.isDone(), "failed before execute returned: nothing was sent");
    Exception failure = told.get(1, TimeUnit.MINUTES);
    assertInstanceOf(IOException.class, failure);
    assertTrue(failure.getMessage().contains("'partner-limit'"), failure.getMessage());
    assertEquals(0, partner.accepted() + partner.refused());
  }

  /**
   * An app that passes the async client no callback and hears of the call from its response
   * consumer alone (Spring's {@code WebClient} on {@code HttpComponentsClientHttpConnector} does):
   * the consumer is told of the failure, as of the client's own, or the app would wait forever.
   */
  @Test
  void aFailedAsyncApache5CallFailsTheAppsResponseConsumer() throws Exception {
    RULES.decision = OutboundDecision.fail("partner-limit", 3);
    CompletableFuture<Exception> told = new CompletableFuture<>();
    AsyncResponseConsumer<SimpleHttpResponse> simple = SimpleResponseConsumer.create();
    AsyncResponseConsumer<SimpleHttpResponse> consumer = new AsyncResponseConsumer<>() {
      @Override
      public void consumeResponse(HttpResponse response, EntityDetails entityDetails,
          HttpContext context, FutureCallback<SimpleHttpResponse> resultCallback)
          throws HttpException, IOException {
        simple.consumeResponse(response, entityDetails, context, resultCallback);
        told.complete(null);
      }

      @Override
      public void informationResponse(HttpResponse response, HttpContext context)
          throws HttpException, IOException {
        simple.informationResponse(response, context);
      }

      @Override
      public void failed(Exception cause) {
        told.complete(cause);
        simple.failed(cause);
      }

      @Override
      public void updateCapacity(CapacityChannel capacityChannel) throws IOException {
        simple.updateCapacity(capacityChannel);
      }

      @Override
      public void consume(ByteBuffer src) throws IOException {
        simple.consume(src);
      }

      @Override
      public void streamEnd(List<? extends Header> trailers) throws HttpException, IOException {
        simple.streamEnd(trailers);
      }

      @Override
      public void releaseResources() {
        simple.releaseResources();
      }
    };
    apache5Async.execute(SimpleRequestProducer.create(
        SimpleRequestBuilder.get(partner.url("/orders")).build()), consumer, null);
    Exception failure = told.get(1, TimeUnit.MINUTES);
    assertInstanceOf(IOException.class, failure);
    assertTrue(failure.getMessage().contains("'partner-limit'"), failure.getMessage());
    assertEquals(0, partner.accepted() + partner.refused());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"RestTemplate on apache5", "RestClient on apache5",
      "RestTemplate on okhttp"})
  void springsClientsAreDecidedOnceThroughTheirs(String client) {
    String url = partner.url("/orders");
    switch (client) {
      case "RestTemplate on apache5":
        new RestTemplate(new HttpComponentsClientHttpRequestFactory(apache5))
            .exchange(url, HttpMethod.GET, tenantAcme(), String.class);
        break;
      case "RestClient on apache5":
        RestClient.builder().requestFactory(new HttpComponentsClientHttpRequestFactory(apache5))
            .build().get().uri(url).header("X-Tenant", "acme").retrieve().toEntity(String.class);
        break;
      default:
        @SuppressWarnings("deprecation")
        OkHttp3ClientHttpRequestFactory okFactory = new OkHttp3ClientHttpRequestFactory(okHttp);
        new RestTemplate(okFactory).exchange(url, HttpMethod.GET, tenantAcme(), String.class);
    }
    assertEquals(List.of("GET 127.0.0.1:" + partner.port() + "/orders X-Tenant=acme"),
        RULES.decided);
    assertEquals(List.of("200 Retry-After=null"), RULES.answers);
  }

  private static HttpEntity<Void> tenantAcme() {
    HttpHeaders headers = new HttpHeaders();
    headers.set("X-Tenant", "acme");
    return new HttpEntity<>(headers);
  }

  /** A GET of {@code path} on the partner with the header {@code X-Tenant: acme}: its status. */
  private static int call(String client, String path) throws Exception {
    String url = partner.url(path);
    switch (client) {
      case "apache4": {
        HttpGet get = new HttpGet(url);
        get.setHeader("X-Tenant", "acme");
        try (CloseableHttpResponse response = apache4.execute(get)) {
          EntityUtils.consume(response.getEntity());
          return response.getStatusLine().getStatusCode();
        }
      }
      case "apache5": {
        org.apache.hc.client5.http.classic.methods.HttpGet get =
            new org.apache.hc.client5.http.classic.methods.HttpGet(url);
        get.setHeader("X-Tenant", "acme");
        return apache5.execute(get, response -> {
          org.apache.hc.core5.http.io.entity.EntityUtils.consume(response.getEntity());
          return response.getCode();
        });
      }
      case "apache5-async": {
        // the future the app waits on; a failed call fails it (ExecutionException)
        SimpleHttpRequest get = SimpleRequestBuilder.get(url).setHeader("X-Tenant", "acme").build();
        return apache5Async.execute(get, null).get(1, TimeUnit.MINUTES).getCode();
      }
      case "okhttp":
        try (Response response = okHttp.newCall(okRequest(url)).execute()) {
          response.body().string();
          return response.code();
        }
      case "okhttp-async":
        return enqueued(url);
      default:
        throw new IllegalArgumentException(client + " is not one of "
            + Arrays.asList("apache4", "apache5", "apache5-async", "okhttp", "okhttp-async"));
    }
  }

  private static Request okRequest(String url) {
    return new Request.Builder().url(url).header("X-Tenant", "acme").build();
  }

  private static int enqueued(String url) throws Exception {
    CompletableFuture<Integer> status = new CompletableFuture<>();
    okHttp.newCall(okRequest(url)).enqueue(new Callback() {
      @Override
      public void onFailure(Call call, IOException e) {
        status.completeExceptionally(e);
      }

      @Override
      public void onResponse(Call call, Response response) throws IOException {
        try (Response closed = response) {
          closed.body().string();
          status.complete(closed.code());
        }
      }
    });
    return status.get(1, TimeUnit.MINUTES);
  }
}
