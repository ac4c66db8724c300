package io.tollgate.instrumentation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * A JDK client's class file shown to the transformer is woven as it loads, or handed to the
 * thread that turns the weaving on (which retransforms it), never neither: {@link
 * JdkWeavingSwitch}.
 */
class JdkWeavingSwitchTest {

  private static final ClassLoader PLATFORM = ClassLoader.getPlatformClassLoader();
  private static final String CLIENT = "jdk/internal/net/http/HttpClientImpl";

  @Test
  void aClassFileShownBeforeTheSwitchIsHandedOverOnceByName() {
    JdkWeavingSwitch weaving = new JdkWeavingSwitch();
    assertFalse(weaving.weaves(PLATFORM, CLIENT));
    assertFalse(weaving.weaves(null, "sun/net/www/protocol/http/HttpURLConnection"));

    Map<String, ClassLoader> passed = weaving.turnOn();

    assertEquals(2, passed.size(), passed.toString());
    assertEquals(PLATFORM, passed.get("jdk.internal.net.http.HttpClientImpl"));
    assertTrue(passed.containsKey("sun.net.www.protocol.http.HttpURLConnection"));
    assertEquals(null, passed.get("sun.net.www.protocol.http.HttpURLConnection"), "boot loader");
    assertTrue(weaving.weaves(PLATFORM, CLIENT), "from now on, woven as they load");
    assertEquals(Map.of(), weaving.turnOn(), "nothing more to hand over");
  }

  /** The race of the application's main thread and the agent's start-up thread, many times. */
  @Test
  void aClassFileShownAsTheSwitchTurnsOnIsWovenOrHandedOverNeverNeither() throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 2_000; round++) {
        JdkWeavingSwitch weaving = new JdkWeavingSwitch();
        CyclicBarrier start = new CyclicBarrier(2);
        Future<Boolean> wovenAsItLoads = threads.submit(() -> {
          start.await();
          return weaving.weaves(PLATFORM, CLIENT);
        });
        Future<Map<String, ClassLoader>> handedOver = threads.submit(() -> {
          start.await();
          return weaving.turnOn();
        });
        boolean woven = wovenAsItLoads.get();
        boolean retransformed = !handedOver.get().isEmpty();
        assertTrue(woven ^ retransformed, "round " + round + ": woven as it loaded " + woven
            + ", handed over to be retransformed " + retransformed);
      }
    } finally {
      threads.shutdownNow();
    }
  }
}
