package io.tollgate.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * While the agent starts on its own thread, a class that may serve requests waits for it and is
 * then transformed by Byte Buddy (here a recording stand-in); every other class loads at once.
 */
class StartupTransformerTest {

  private static final ClassLoader APP = new ClassLoader(null) {};
  private static final ClassLoader AGENT = new ClassLoader(null) {};
  private static final byte[] CHANGED = {1, 2, 3};

  private final List<String> transformedByByteBuddy = new CopyOnWriteArrayList<>();
  private final ClassFileTransformer byteBuddy =
      new ClassFileTransformer() {
        @Override
        public byte[] transform(
            Module module,
            ClassLoader loader,
            String className,
            Class<?> redefined,
            ProtectionDomain domain,
            byte[] bytes) {
          transformedByByteBuddy.add(className);
          return CHANGED;
        }
      };
  private final StartupTransformer gatekeeper = new StartupTransformer(AGENT);

  @Test
  void aServletLoadedBeforeTheAgentIsReadyWaitsAndIsThenTransformed() throws Exception {
    AtomicReference<byte[]> result = new AtomicReference<>();
    Thread application =
        new Thread(() -> result.set(load(APP, "jakarta/servlet/http/HttpServlet")), "app-main");
    application.start();
    awaitBlocked(application);
    assertTrue(transformedByByteBuddy.isEmpty(), "nothing transformed before the agent is ready");

    gatekeeper.ready(byteBuddy);
    application.join();

    assertArrayEquals(CHANGED, result.get());
    assertEquals(List.of("jakarta/servlet/http/HttpServlet"), transformedByByteBuddy);
    assertTrue(gatekeeper.waitSummary().startsWith("1 application class(es) waited"),
        gatekeeper.waitSummary());
    assertTrue(gatekeeper.loadedUnchanged().isEmpty());
  }

  @Test
  void otherClassesLoadUnchangedWithoutWaiting() {
    assertNull(load(APP, "java/util/concurrent/ConcurrentHashMap"));
    assertNull(load(APP, "jakarta/servlet/Servlet")); // an interface: never changed
    assertEquals("no application class waited for it", gatekeeper.waitSummary());
  }

  @Test
  void theAgentsOwnClassesTheJdksAndTheStartThreadNeverWait() throws Exception {
    assertNull(load(AGENT, "jakarta/servlet/http/HttpServlet"));
    assertNull(load(null, "jakarta/servlet/http/HttpServlet"));
    AtomicReference<byte[]> result = new AtomicReference<>(CHANGED);
    Thread start = new Thread(() -> result.set(load(APP, "jakarta/servlet/http/HttpServlet")));
    gatekeeper.startedOn(start);
    start.start();
    start.join();
    assertNull(result.get());
    assertEquals("no application class waited for it", gatekeeper.waitSummary());
  }

  @Test
  void onceReadyTheClassesThatMayBeInstrumentedGoToByteBuddy() {
    gatekeeper.ready(byteBuddy);
    assertArrayEquals(CHANGED, load(APP, "jakarta/servlet/http/HttpServlet"));
    assertNull(load(APP, "java/util/concurrent/ConcurrentHashMap"));
    assertEquals(List.of("jakarta/servlet/http/HttpServlet"), transformedByByteBuddy);
    assertEquals("no application class waited for it", gatekeeper.waitSummary());
  }

  @Test
  void onceReadyEveryRetransformationGoesToByteBuddy() throws Exception {
    gatekeeper.ready(byteBuddy);
    byte[] result = gatekeeper.transform(null, APP, "java/lang/String", String.class, null,
        classFile("java/lang/String"));
    assertArrayEquals(CHANGED, result);
  }

  @Test
  void anAgentThatFailedToStartHoldsNothingBack() {
    gatekeeper.ready(null);
    assertNull(load(APP, "jakarta/servlet/http/HttpServlet"));
    assertEquals("no application class waited for it", gatekeeper.waitSummary());
  }

  private byte[] load(ClassLoader loader, String internalName) {
    try {
      return gatekeeper.transform(null, loader, internalName, null, null, classFile(internalName));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static byte[] classFile(String internalName) throws IOException {
    try (InputStream in =
        StartupTransformerTest.class.getResourceAsStream("/" + internalName + ".class")) {
      return in.readAllBytes();
    }
  }

  /** Until the thread waits (for the agent, the only thing it can wait for here). */
  private static void awaitBlocked(Thread thread) throws InterruptedException {
    while (thread.getState() != Thread.State.TIMED_WAITING) {
      assertTrue(thread.isAlive(), "the loading thread finished without waiting");
      Thread.sleep(5);
    }
  }
}
