package io.tollgate.instrumentation.classloader;

import static io.tollgate.instrumentation.classloader.LoaderClassFiles.asJava5;
import static io.tollgate.instrumentation.classloader.LoaderClassFiles.bytesOf;
import static io.tollgate.instrumentation.classloader.LoaderClassFiles.classFile;
import static io.tollgate.instrumentation.classloader.LoaderClassFiles.instance;
import static io.tollgate.instrumentation.classloader.LoaderClassFiles.load;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A woven class loader answers names in the delegated package from the bootstrap loader and leaves
 * every other name to its own code. The bridge's package is not on the bootstrap class path in
 * this JVM, so the weaving is run for a JDK package instead: the sample loaders refuse every name
 * themselves, so a class they return came from the bootstrap loader. Each woven copy is defined,
 * so verified by the JVM.
 */
class LoadClassWeaverTest {

  private static final ClassLoaderWeaving DELEGATING_JAVA_UTIL_CONCURRENT =
      new ClassLoaderWeaving("java.util.concurrent.");

  @ParameterizedTest(name = "{0}.loadClass({1}): {2}")
  @CsvSource(delimiter = '|', nullValues = "null", value = {
    "RefusingLoaderWithTwoArguments | java.util.concurrent.ConcurrentHashMap | the bootstrap's",
    "RefusingLoaderWithTwoArguments | java.util.concurrent.NoSuchClass       | refused java.util.concurrent.NoSuchClass",
    "RefusingLoaderWithTwoArguments | java.util.ArrayList                    | refused java.util.ArrayList",
    "RefusingLoaderWithTwoArguments | null                                   | refused null",
    "RefusingLoaderWithOneArgument  | java.util.concurrent.ConcurrentHashMap | the bootstrap's",
    "RefusingLoaderWithOneArgument  | java.util.concurrent.NoSuchClass       | refused java.util.concurrent.NoSuchClass",
    "RefusingLoaderWithOneArgument  | java.util.ArrayList                    | refused java.util.ArrayList",
    "RefusingLoaderWithOneArgument  | null                                   | refused null, try 0",
  })
  void answersTheDelegatedPackageFromTheBootstrapLoader(String loader, String name,
      String expected) throws Exception {
    assertEquals(expected, load(wovenInstance(loader, classFile(loader)), loader, name));
  }

  @ParameterizedTest(name = "compiled for Java 5, {0}.loadClass({1}): {2}")
  @CsvSource(delimiter = '|', value = {
    "RefusingLoaderWithTwoArguments | java.util.concurrent.ConcurrentHashMap | the bootstrap's",
    "RefusingLoaderWithTwoArguments | java.util.ArrayList                    | refused java.util.ArrayList",
    "RefusingLoaderWithOneArgument  | java.util.concurrent.ConcurrentHashMap | the bootstrap's",
  })
  void classFilesWithoutStackMapFrames(String loader, String name, String expected)
      throws Exception {
    assertEquals(expected, load(wovenInstance(loader, asJava5(classFile(loader))), loader, name));
  }

  @Test
  void classesThatDeclareNoLoadClassAreLeftAlone() throws Exception {
    byte[] caller = classFile("LoadClassCaller");
    assertTrue(ClassLoaderWeaving.mentionsLoadClass(caller), "it calls loadClass: parsed");
    assertNull(DELEGATING_JAVA_UTIL_CONCURRENT.weave(caller));
    assertNull(DELEGATING_JAVA_UTIL_CONCURRENT.weave(bytesOf(String.class.getName())));
    assertNull(DELEGATING_JAVA_UTIL_CONCURRENT.weave(new byte[] {1, 2, 3}));
  }

  private static ClassLoader wovenInstance(String simpleName, byte[] classFile) throws Exception {
    byte[] woven = DELEGATING_JAVA_UTIL_CONCURRENT.weave(classFile);
    assertNotNull(woven, simpleName + " declares loadClass");
    return instance(simpleName, woven);
  }
}
