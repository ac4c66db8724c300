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
