package io.tollgate.instrumentation;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which class loaders show the bridge, and what the error tells the operator to change. */
class BridgeVisibilityTest {

  @Test
  void aLoaderThatAsksItsParentsSeesTheAgentsBridge() {
    ClassLoader child = new URLClassLoader(new URL[0], getClass().getClassLoader());
    assertTrue(BridgeVisibility.reachedFrom(child, "org.example.Servlet"));
  }

  @Test
  void aLoaderThatSeesOnlyTheJdkDoesNot() {
    ClassLoader jdkOnly = new URLClassLoader(new URL[0], ClassLoader.getPlatformClassLoader());
    assertFalse(BridgeVisibility.reachedFrom(jdkOnly, "org.example.Servlet"));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(delimiter = '|', value = {
    "org.jboss.modules.ModuleClassLoader              | -Djboss.modules.system.pkgs=org.jboss.byteman,io.tollgate.bootstrap",
    "org.apache.felix.framework.BundleWiringImpl$BundleClassLoader | org.osgi.framework.bootdelegation",
    "org.eclipse.osgi.internal.loader.EquinoxClassLoader | org.osgi.framework.bootdelegation",
    "com.example.server.DeploymentClassLoader         | delegate io.tollgate.bootstrap.* to the bootstrap class loader",
  })
  void theFixNamesTheSettingOfTheLoadersKind(String loaderClass, String named) {
    String fix = BridgeVisibility.fixFor(loaderClass);
    assertTrue(fix.startsWith("Fix: ") && fix.contains(named), fix);
  }
}
