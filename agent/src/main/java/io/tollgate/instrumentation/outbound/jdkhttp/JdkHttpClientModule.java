package io.tollgate.instrumentation.outbound.jdkhttp;

import io.tollgate.engine.TollgateGate;
import io.tollgate.instrumentation.EntryPointHandler;
import io.tollgate.instrumentation.EntryPointMethod;
import io.tollgate.instrumentation.FrameworkModule;
import io.tollgate.instrumentation.WovenMethod;
import io.tollgate.instrumentation.outbound.OutboundCallWeaver;
import java.util.Arrays;
import java.util.List;
import net.bytebuddy.jar.asm.MethodVisitor;

/**
 * The JDK's {@code java.net.http.HttpClient} (Java 11+), at its implementation's {@code send} and
 * three-argument {@code sendAsync}: every call of the client passes one of them once ({@code send}
 * and the two-argument {@code sendAsync} go on to a private method, not through each other). A JDK
 * class, loaded by the JDK's own loaders: see {@code instrumentation.JdkEntryPoints}.
 */
public final class JdkHttpClientModule implements FrameworkModule {

  // Weavers by name, each loaded when it first weaves a method, not in premain (EntryPointMethod)
  private static final String SEND_ASYNC_WEAVER =
      "io.tollgate.instrumentation.outbound.jdkhttp.JdkHttpClientModule$SendAsyncWeaver";
  private static final String SEND_WEAVER =
      "io.tollgate.instrumentation.outbound.jdkhttp.JdkHttpClientModule$SendWeaver";

  static final String CLIENT = "jdk.internal.net.http.HttpClientImpl";
  static final String FRAMEWORK = "java.net.http.HttpClient";

  @Override
  public List<EntryPointMethod> entryPoints() {
    return Arrays.asList(
        EntryPointMethod.inClass(FRAMEWORK, CLIENT, "send",
            "(Ljava/net/http/HttpRequest;Ljava/net/http/HttpResponse$BodyHandler;)"
                + "Ljava/net/http/HttpResponse;",
            SEND_WEAVER),
        EntryPointMethod.inClass(FRAMEWORK, CLIENT, "sendAsync",
            "(Ljava/net/http/HttpRequest;Ljava/net/http/HttpResponse$BodyHandler;"
                + "Ljava/net/http/HttpResponse$PushPromiseHandler;)"
                + "Ljava/util/concurrent/CompletableFuture;",
            SEND_ASYNC_WEAVER));
  }

  /** An outbound client: its classes are loaded at the application's first call of it. */
  @Override
  public boolean handlerAtFirstCall() {
    return true;
  }

  @Override
  public EntryPointHandler handler(TollgateGate engine) {
    return new JdkHttpClientCalls(engine);
  }

  @Override
  public String requestName() {
    return "an outbound call of java.net.http.HttpClient";
  }

  /** {@code send}: a refusal is thrown; the response is read as it is returned. */
  static final class SendWeaver extends OutboundCallWeaver {
    private SendWeaver(MethodVisitor target, WovenMethod method) {
      super(target, method, JdkHttpClientCalls.SEND, false, true, true, false);
    }
  }

  /** {@code sendAsync}: a refusal returns a failed future; the response is read as it completes. */
  static final class SendAsyncWeaver extends OutboundCallWeaver {
    private SendAsyncWeaver(MethodVisitor target, WovenMethod method) {
      super(target, method, JdkHttpClientCalls.SEND_ASYNC, false, false, true, false);
    }
  }
}
