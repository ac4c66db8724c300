package io.tollgate.instrumentation;

import static io.tollgate.instrumentation.EntryPointClassFilesTest.classFile;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tollgate.agent.WeavingTransformer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The agent's one transformer weaves what its two did: a class loader's {@code loadClass} from the
 * start, an entry point once entry points are woven, and leaves every other class alone.
 */
class WeavingTransformerTest {

  private static final ClassLoader APP = WeavingTransformerTest.class.getClassLoader();
  private static final String TEST = "io.tollgate.instrumentation.EntryPointClassFilesTest$";

  @ParameterizedTest(name = "{0}: before entry points {1}, after {2}")
  @CsvSource({
    // class              woven before weaveEntryPoints, after
    "AppClassLoader,      true,  true",
    "AppServlet,          false, true",
    "ServletThatLoads,    false, true",
    "LoaderLike,          false, false",
  })
  void weavesWhatEitherWeavingWould(String simpleName, boolean before, boolean after)
      throws Exception {
    WeavingTransformer transformer = new WeavingTransformer(null, AllEntryPoints.WEAVING);
    String name = (TEST + simpleName).replace('.', '/');
    byte[] bytes = classFile(TEST + simpleName);

    assertEquals(before, transformer.transform(APP, name, null, null, bytes) != null, "before");
    transformer.weaveEntryPoints();
    assertEquals(after, transformer.transform(APP, name, null, null, bytes) != null, "after");
  }

  /**
   * The JDK's own HTTP clients are woven only once their modules read the bridge's (the agent's
   * start-up thread does that, off premain): woven before, their calls would fail. (Woven after:
   * OutboundClientIT and OutboundLibrariesIT, where the bridge is on the boot class path.)
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "sun.net.www.protocol.http.HttpURLConnection",
    "jdk.internal.net.http.HttpClientImpl",
  })
  void notTheJdksClientsBeforeTheirModulesReadTheBridge(String className) throws Exception {
    WeavingTransformer transformer = new WeavingTransformer(null, AllEntryPoints.WEAVING);
    transformer.weaveEntryPoints();
    String name = className.replace('.', '/');

    assertNull(transformer.transform(null, name, null, null, classFile(className)));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"AppClassLoader", "AppServlet"})
  void neverTheJdksClasses(String simpleName) throws Exception {
    WeavingTransformer transformer = new WeavingTransformer(null, AllEntryPoints.WEAVING);
    transformer.weaveEntryPoints();
    byte[] bytes = classFile(TEST + simpleName);
    assertNull(transformer.transform(null, "x/Y", null, null, bytes), "the boot loader's");
    assertNull(transformer.transform(ClassLoader.getPlatformClassLoader(), "x/Y", null, null, bytes),
        "the platform loader's");
    assertNotNull(transformer.transform(APP, "x/Y", null, null, bytes), "the application's");
  }
}
