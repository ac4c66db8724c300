package io.tollgate.instrumentation;

import static io.tollgate.instrumentation.EntryPointClassFilesTest.classFile;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.agent.WeavingTransformer;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The JDK's HTTP clients are woven however the application's loading of them races the agent's
 * start-up thread turning their weaving on ({@link JdkEntryPoints#prepare}, {@link
 * JdkWeavingSwitch}). The application's main thread makes its {@code HttpClient} as the agent
 * starts: {@code HttpClientImpl}'s class file may pass the transformer before the switch, and the
 * class be defined, and so listed by the JVM, only after the agent looked for it. In a CI run that
 * left the JDK client unwoven, its calls unlimited ({@code OutboundClientIT}: a rule of 5 calls an
 * hour let 8 through).
 *
 * <p>The JVM here is scripted ({@link ScriptedJvm}): what it lists as loaded when the agent looks
 * for the clients' classes, and what it is asked to retransform.
 */
class JdkEntryPointsTest {

  private static final ClassLoader PLATFORM = ClassLoader.getPlatformClassLoader();
  /** The agent's own class loader, never woven: one of its own, as in the agent. */
  private static final ClassLoader AGENT = new ClassLoader(null) {};

  @ParameterizedTest(name = "{0}: class file {1}, listed by the JVM when looked for: {2}")
  @CsvSource({
    // class                                     its class file passed the transformer
    //                                                                listed  retransformed
    "jdk.internal.net.http.HttpClientImpl,        before the switch, true,  true",
    // the CI run's failure: passed unwoven, defined only after the agent looked for it
    "jdk.internal.net.http.HttpClientImpl,        before the switch, false, true",
    "jdk.internal.net.http.HttpClientImpl,        after the switch,  false, false",
    "jdk.internal.net.http.HttpClientImpl,        never,             false, false",
    "sun.net.www.protocol.http.HttpURLConnection, before the switch, true,  true",
    "sun.net.www.protocol.http.HttpURLConnection, before the switch, false, true",
    "sun.net.www.protocol.http.HttpURLConnection, after the switch,  false, false",
  })
  void aJdkClientLoadedAsTheAgentStartsIsWovenEitherWay(
      String className, String passed, boolean listed, boolean retransformed) throws Exception {
    WeavingTransformer transformer = new WeavingTransformer(AGENT, AllEntryPoints.WEAVING);
    transformer.weaveEntryPoints();
    Class<?> type = Class.forName(className, false, PLATFORM);
    ClassLoader loader = type.getClassLoader();
    String internalName = className.replace('.', '/');
    ScriptedJvm jvm = new ScriptedJvm(listed ? type : null);

    if (passed.equals("before the switch")) {
      assertNull(transformer.transform(loader, internalName, null, null, classFile(className)),
          "not woven before its module reads the bridge's");
    }
    JdkEntryPoints.prepare(jvm.instrumentation(), AllEntryPoints.WEAVING,
        transformer.jdkEntryPoints());

    assertEquals(retransformed ? List.of(type) : List.of(), jvm.retransformed, "retransformed");
    // Retransformed, or loaded from now on: its class file is shown to a transformer that weaves
    // it (woven for real where the bridge is on the boot class path: OutboundClientIT).
    assertTrue(transformer.jdkEntryPoints().weaves(loader, internalName), "woven from now on");
  }
}
