package io.tollgate.instrumentation;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The start-up thread's warm-up weaves its sample through the same code as an application's entry
 * point (what it loads is what that code loads): a weave that found nothing, or stopped short of
 * the bridge's calls, would load less. ({@code StartupWorkIT} checks the application's main thread
 * then loads none of ASM's classes.)
 */
class WeavingWarmUpTest {

  @Test
  void theSampleIsWovenWithTheBridgesCalls() throws Exception {
    byte[] original;
    try (InputStream in = WeavingWarmUp.class.getClassLoader().getResourceAsStream(
        WeavingWarmUp.Sample.class.getName().replace('.', '/') + ".class")) {
      original = in.readAllBytes();
    }
    byte[] woven = WeavingWarmUp.run();
    String text = new String(woven, StandardCharsets.ISO_8859_1);
    assertTrue(woven.length > original.length, "the sample's method is woven");
    assertTrue(text.contains("io/tollgate/bootstrap/TollgateBridge"), "it calls the bridge");
    assertTrue(text.contains("(ILjava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"),
        "its start calls the bridge's enter");
    assertTrue(text.contains("(ILjava/lang/Object;Ljava/lang/Throwable;)V"),
        "its ends call the bridge's exit");
  }
}
