package io.tollgate.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What {@code premain} makes of {@code jboss.modules.system.pkgs}: the bridge's package added,
 * whatever the property held kept; unchanged (null) where it shows the bridge already.
 */
class JBossModulesSystemPackagesTest {

  @ParameterizedTest(name = "\"{0}\" becomes \"{1}\"")
  @CsvSource(delimiter = '|', nullValues = "null", value = {
    "null                                  | io.tollgate.bootstrap",
    "''                                    | io.tollgate.bootstrap",
    "org.jboss.byteman                     | org.jboss.byteman,io.tollgate.bootstrap",
    "org.jboss.byteman,com.sun.crypto.provider | org.jboss.byteman,com.sun.crypto.provider,io.tollgate.bootstrap",
    "org.jboss.byteman,io.tollgate         | null",
    "org.jboss.byteman, io.tollgate.bootstrap | null",
    "io.tollgate.bootstrapx                | io.tollgate.bootstrapx,io.tollgate.bootstrap",
    "io.toll                               | io.toll,io.tollgate.bootstrap",
  })
  void theBridgesPackageIsAddedToWhatWasThere(String before, String after) {
    assertEquals(after, TollgateAgent.withBridgePackage(before));
  }
}
