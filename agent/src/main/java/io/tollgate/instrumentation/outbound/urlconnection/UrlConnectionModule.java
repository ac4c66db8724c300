package io.tollgate.instrumentation.outbound.urlconnection;

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
 * The JDK's {@code HttpURLConnection} for http and https (whose connection delegates to the same
 * class), at {@code sun.net.www.protocol.http.HttpURLConnection}'s {@code connect}, {@code
 * getOutputStream} and {@code getInputStream}. A JDK class, loaded by the bootstrap loader: see
 * {@code instrumentation.JdkEntryPoints}.
 */
public final class UrlConnectionModule implements FrameworkModule {

  // Weavers by name, each loaded when it first weaves a method, not in premain (EntryPointMethod)
  private static final String CONNECT_WEAVER =
      "io.tollgate.instrumentation.outbound.urlconnection.UrlConnectionModule$ConnectWeaver";
  private static final String INPUT_WEAVER =
      "io.tollgate.instrumentation.outbound.urlconnection.UrlConnectionModule$InputWeaver";
  private static final String OUTPUT_WEAVER =
      "io.tollgate.instrumentation.outbound.urlconnection.UrlConnectionModule$OutputWeaver";

  static final String CONNECTION = "sun.net.www.protocol.http.HttpURLConnection";
  static final String FRAMEWORK = "java.net.HttpURLConnection";

  @Override
  public List<EntryPointMethod> entryPoints() {
    return Arrays.asList(
        EntryPointMethod.inClass(FRAMEWORK, CONNECTION, "connect", "()V", CONNECT_WEAVER),
        EntryPointMethod.inClass(FRAMEWORK, CONNECTION, "getOutputStream",
            "()Ljava/io/OutputStream;", OUTPUT_WEAVER),
        EntryPointMethod.inClass(FRAMEWORK, CONNECTION, "getInputStream",
            "()Ljava/io/InputStream;", INPUT_WEAVER));
  }

  /** An outbound client: its classes are loaded at the application's first call of it. */
  @Override
  public boolean handlerAtFirstCall() {
    return true;
  }

  @Override
  public EntryPointHandler handler(TollgateGate engine) {
    return new UrlConnectionCalls(engine);
  }

  @Override
  public String requestName() {
    return "an outbound call of HttpURLConnection";
  }

  static final class ConnectWeaver extends OutboundCallWeaver {
    private ConnectWeaver(MethodVisitor target, WovenMethod method) {
      super(target, method, UrlConnectionCalls.CONNECT, true, true, false, false);
    }
  }

  static final class OutputWeaver extends OutboundCallWeaver {
    private OutputWeaver(MethodVisitor target, WovenMethod method) {
      super(target, method, UrlConnectionCalls.OUTPUT, true, true, false, false);
    }
  }

  /** The answer is read as the stream is returned, or as the error it is is thrown. */
  static final class InputWeaver extends OutboundCallWeaver {
    private InputWeaver(MethodVisitor target, WovenMethod method) {
      super(target, method, UrlConnectionCalls.INPUT, true, true, true, true);
    }
  }
}
