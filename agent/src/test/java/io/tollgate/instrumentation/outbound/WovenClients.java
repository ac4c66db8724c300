package io.tollgate.instrumentation.outbound;

import io.tollgate.agent.FrameworkModules;
import io.tollgate.bootstrap.RequestGate;
import io.tollgate.bootstrap.TollgateBridge;
import io.tollgate.instrumentation.EntryPointHandler;
import io.tollgate.instrumentation.EntryPointWeaving;
import io.tollgate.instrumentation.FrameworkModule;
import io.tollgate.instrumentation.outbound.apache4.Apache4Module;
import io.tollgate.instrumentation.outbound.apache4.Apache4Requests;
import io.tollgate.instrumentation.outbound.apache5.Apache5AsyncExchanges;
import io.tollgate.instrumentation.outbound.apache5.Apache5AsyncModule;
import io.tollgate.instrumentation.outbound.apache5.Apache5Module;
import io.tollgate.instrumentation.outbound.apache5.Apache5Requests;
import io.tollgate.instrumentation.outbound.okhttp.OkHttpCallsReader;
import io.tollgate.instrumentation.outbound.okhttp.OkHttpModule;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import net.bytebuddy.agent.ByteBuddyAgent;

/**
 * The real client libraries of the test class path with their sends woven, as the agent weaves
 * them (the same weaving, through this JVM's instrumentation), and the bridge handing their calls
 * to the client modules' handlers with a {@link RecordingLimiter} as the outbound rules.
 */
final class WovenClients {

  /** The client classes whose sends the modules weave. */
  private static final List<String> SENDS = List.of(
      "org.apache.http.impl.client.InternalHttpClient",
      "org.apache.hc.client5.http.impl.classic.InternalHttpClient",
      "org.apache.hc.client5.http.impl.async.InternalAbstractHttpAsyncClient",
      "org.apache.hc.client5.http.impl.async.InternalAbstractHttpAsyncClient$2",
      "okhttp3.internal.connection.RealCall");

  private static final List<Throwable> FAILURES = new CopyOnWriteArrayList<>();
  private static boolean woven;

  private WovenClients() {}

  /** Weaves the clients' sends (once per JVM) and installs a bridge to {@code limiter}. */
  static synchronized void install(RecordingLimiter limiter) throws Exception {
    if (!woven) {
      weave();
      woven = true;
    }
    List<FrameworkModule> modules = FrameworkModules.all();
    EntryPointHandler[] handlers = new EntryPointHandler[modules.size()];
    handlers[FrameworkModules.numberOf(Apache4Module.class)] =
        new OutboundSends(() -> limiter, new Apache4Requests());
    handlers[FrameworkModules.numberOf(Apache5Module.class)] =
        new OutboundSends(() -> limiter, new Apache5Requests());
    handlers[FrameworkModules.numberOf(Apache5AsyncModule.class)] =
        new Apache5AsyncExchanges(() -> limiter, new Apache5Requests());
    handlers[FrameworkModules.numberOf(OkHttpModule.class)] =
        new OutboundSends(() -> limiter, new OkHttpCallsReader());
    TollgateBridge.install(new RequestGate() {
      @Override
      public Object enter(int entryPoint, Object first, Object second) throws Exception {
        return handlers[entryPoint].enter(first, second);
      }

      @Override
      public void exit(int entryPoint, Object scope, Throwable thrown) throws Exception {
        handlers[entryPoint].exit(scope, thrown);
      }

      @Override
      public Object returned(int entryPoint, Object scope, Object result) throws Exception {
        return handlers[entryPoint].returned(scope, result);
      }
    });
  }

  static void uninstall() {
    TollgateBridge.install(null);
  }

  private static void weave() throws Exception {
    Instrumentation instrumentation = ByteBuddyAgent.install();
    EntryPointWeaving weaving = EntryPointWeaving.of(FrameworkModules.all());
    ClassFileTransformer transformer = new ClassFileTransformer() {
      @Override
      public byte[] transform(ClassLoader loader, String name, Class<?> redefined,
          ProtectionDomain domain, byte[] classFile) {
        if (name == null || !SENDS.contains(name.replace('/', '.'))) {
          return null;
        }
        try {
          EntryPointWeaving.WovenClass wovenClass = weaving.weave(classFile);
          if (wovenClass == null) {
            FAILURES.add(new AssertionError(name + " has no send to weave"));
            return null;
          }
          return wovenClass.classFile;
        } catch (Throwable t) {
          FAILURES.add(t); // the JVM drops what a transformer throws
          return null;
        }
      }
    };
    instrumentation.addTransformer(transformer, true);
    try {
      for (String send : SENDS) {
        instrumentation.retransformClasses(Class.forName(send, false, WovenClients.class.getClassLoader()));
      }
    } finally {
      instrumentation.removeTransformer(transformer);
    }
    if (!FAILURES.isEmpty()) {
      AssertionError error = new AssertionError("weaving the clients failed");
      FAILURES.forEach(error::addSuppressed);
      throw error;
    }
  }
}
