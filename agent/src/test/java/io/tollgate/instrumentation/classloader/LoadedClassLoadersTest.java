package io.tollgate.instrumentation.classloader;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which loaded classes the agent's scan takes for an application's class loaders, to retransform
 * so that their {@code loadClass} shows the bridge (after {@code attach}, or loaded before
 * {@code premain}).
 */
class LoadedClassLoadersTest {

  /** An application's class loader, as the scan meets one: defined by the system class loader. */
  static final class ApplicationsLoader extends ClassLoader {}

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({
    // class                                                               candidate  why
    "io.tollgate.instrumentation.classloader.LoadedClassLoadersTest$ApplicationsLoader, true, an application's loader",
    "io.tollgate.bootstrap.BridgeInBootLoader$DefinerLoader,                 false, the agent's own (premain's definer)",
    "java.net.URLClassLoader,                                               false, the JDK's (bootstrap loader)",
    "java.lang.String,                                                      false, not a class loader",
  })
  void theScanTakesOnlyApplicationsLoaders(String className, boolean candidate, String why)
      throws Exception {
    Class<?> loaded = Class.forName(className, false, getClass().getClassLoader());
    assertEquals(candidate, LoadedClassLoaders.isCandidate(loaded, null), why);
  }
}
