package io.tollgate.instrumentation.outbound.apache5;

import io.tollgate.engine.TollgateGate;
import io.tollgate.instrumentation.EntryPointHandler;
import io.tollgate.instrumentation.EntryPointMethod;
import io.tollgate.instrumentation.FrameworkModule;
import java.util.Arrays;
import java.util.List;

/**
 * Apache HttpClient 5 async ({@code CloseableHttpAsyncClient.execute}), in the client the builders
 * make ({@code InternalAbstractHttpAsyncClient}). Its {@code doExecute} hands the request producer
 * a channel (a lambda) which the producer calls with the request at once, on the calling thread,
 * before {@code execute} returns the future: the call is decided there, as the JDK's {@code
 * sendAsync} is (on an I/O reactor thread only when the app calls {@code execute} on one). The
 * client's own callback at the top of its chain ({@code doExecute}'s anonymous {@code
 * AsyncExecCallback}) is given the partner's final response once per call (its retries and
 * redirects are below it): the answer is learnt there, found by the call's response consumer,
 * which both hold. Spring's {@code WebClient} on {@code HttpComponentsClientHttpConnector} sends
 * through it.
 */
public final class Apache5AsyncModule implements FrameworkModule {

  // Weavers by name, each loaded when it first weaves a method, not in premain (EntryPointMethod)
  private static final String APACHE5_ASYNC_ANSWER_WEAVER =
      "io.tollgate.instrumentation.outbound.apache5.Apache5AsyncAnswerWeaver";
  private static final String APACHE5_ASYNC_SEND_WEAVER =
      "io.tollgate.instrumentation.outbound.apache5.Apache5AsyncSendWeaver";

  static final String CLIENT =
      "org.apache.hc.client5.http.impl.async.InternalAbstractHttpAsyncClient";

  /** The request channel of {@code doExecute}, as javac names it (5.5; 5.1's is a class). */
  private static final String REQUEST_CHANNEL = "lambda$doExecute$0";
  private static final String REQUEST_CHANNEL_DESCRIPTOR =
      "(Lorg/apache/hc/client5/http/protocol/HttpClientContext;"
          + "Lorg/apache/hc/core5/http/HttpHost;Lorg/apache/hc/core5/http/nio/HandlerFactory;"
          + "Lorg/apache/hc/core5/concurrent/ComplexFuture;"
          + "Lorg/apache/hc/core5/http/nio/AsyncRequestProducer;"
          + "Lorg/apache/hc/core5/http/nio/AsyncResponseConsumer;"
          + "Lorg/apache/hc/core5/http/HttpRequest;Lorg/apache/hc/core5/http/EntityDetails;"
          + "Lorg/apache/hc/core5/http/protocol/HttpContext;)V";

  /** {@code doExecute}'s callback, the second anonymous class of the client (5.5). */
  static final String EXCHANGE_CALLBACK = CLIENT + "$2";
  private static final String HANDLE_RESPONSE =
      "(Lorg/apache/hc/core5/http/HttpResponse;Lorg/apache/hc/core5/http/EntityDetails;)"
          + "Lorg/apache/hc/core5/http/nio/AsyncDataConsumer;";

  @Override
  public List<EntryPointMethod> entryPoints() {
    return Arrays.asList(
        EntryPointMethod.inClass("Apache HttpClient 5 async", CLIENT, REQUEST_CHANNEL,
            REQUEST_CHANNEL_DESCRIPTOR, APACHE5_ASYNC_SEND_WEAVER),
        EntryPointMethod.inClass("Apache HttpClient 5 async", EXCHANGE_CALLBACK,
            "handleResponse", HANDLE_RESPONSE, APACHE5_ASYNC_ANSWER_WEAVER));
  }

  /** An outbound client: its classes are loaded at the application's first call of it. */
  @Override
  public boolean handlerAtFirstCall() {
    return true;
  }

  @Override
  public EntryPointHandler handler(TollgateGate engine) {
    return new Apache5AsyncExchanges(engine::outbound, new Apache5Requests());
  }

  @Override
  public String requestName() {
    return "an Apache HttpClient 5 async call";
  }
}
