import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;

/**
 * A second agent, after Tollgate's: holds the definition of jdk.internal.net.http.HttpClientImpl
 * (after Tollgate's transformer has seen its class file) until Tollgate's start-up thread has
 * either looked for the loaded JDK clients (it is past prepare: in finishStarting, or gone) or is
 * waiting for this very definition (JdkEntryPoints.defined). Widens the race of the CI failure.
 */
public final class DelayDefinition {
  static volatile boolean clientSeen;
  static volatile String heldAt;

  public static void premain(String args, Instrumentation inst) {
    inst.addTransformer(new ClassFileTransformer() {  // retransformation capable: after Tollgate's
      @Override
      public byte[] transform(ClassLoader loader, String name, Class<?> redefined,
          ProtectionDomain domain, byte[] bytes) {
        if (!clientSeen && heldAt == null && Thread.currentThread().getName().equals("tollgate-start")) {
          // holds the start-up thread (before it turns the JDK's weaving on) until main has shown
          // HttpClientImpl's class file to the transformers
          heldAt = name;
          long deadline = System.nanoTime() + 20_000_000_000L;
          while (!clientSeen && System.nanoTime() < deadline) {
            try { Thread.sleep(5); } catch (InterruptedException e) { break; }
          }
          System.out.println("[delay] held the start-up thread at " + name + " until main loaded the client: " + clientSeen);
        }
        if (redefined == null && "jdk/internal/net/http/HttpClientImpl".equals(name)) {
          clientSeen = true;
          long deadline = System.nanoTime() + 20_000_000_000L;
          String why = "timeout";
          while (System.nanoTime() < deadline) {
            why = startThreadState();
            if (why != null) break;
            Thread.onSpinWait();
            try { Thread.sleep(5); } catch (InterruptedException e) { break; }
          }
          System.out.println("[delay] HttpClientImpl defined after: " + why);
        }
        return null;
      }
    }, true);
  }

  static String startThreadState() {
    for (java.util.Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
      if (!e.getKey().getName().equals("tollgate-start")) continue;
      for (StackTraceElement f : e.getValue()) {
        if (f.getMethodName().equals("defined") && f.getClassName().endsWith("JdkEntryPoints")) return "waited for by the start-up thread";
        if (f.getMethodName().equals("finishStarting")) return "the start-up thread is past prepare";
      }
      return null;
    }
    return "no start-up thread (gone)";
  }
}
