package io.tollgate.instrumentation;

import static io.tollgate.instrumentation.EntryPointClassFilesTest.classFile;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.agent.WeavingTransformer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * On {@code attach}, an application's servlet is woven however its loading races the agent turning
 * the weaving of entry points on ({@link LoadedEntryPoints#retransform}, {@link
 * EntryPointWeavingSwitch}): its class file may pass the transformer just before the switch, and
 * the class be defined, and so listed by the JVM, only after the agent looked. Woven by neither,
 * its requests would pass unlimited for the life of the JVM, as the JDK's HTTP client's once did
 * ({@link JdkEntryPointsTest}).
 *
 * <p>The JVM here is scripted: what it lists as loaded, and what it is asked to retransform.
 */
class LoadedEntryPointsTest {

  /** The agent's own class loader, never woven: one of its own, as in the agent. */
  private static final ClassLoader AGENT = new ClassLoader(null) {};
  private static final Class<?> SERVLET = EntryPointClassFilesTest.AppServlet.class;

  @ParameterizedTest(name = "class file {0}, listed by the JVM when looked for: {1}")
  @CsvSource({
    // its class file passed the transformer   listed   retransformed
    "before the switch,                         true,    true",
    // the race: passed unwoven, defined only after the agent looked for it
    "before the switch,                         false,   true",
    "after the switch,                          false,   false",
    "after the switch,                          true,    true",
    "never,                                     false,   false",
  })
  void aServletLoadedAsTheAgentAttachesIsWovenEitherWay(
      String passed, boolean listed, boolean retransformed) throws Exception {
    WeavingTransformer transformer = new WeavingTransformer(AGENT, AllEntryPoints.WEAVING);
    String internalName = SERVLET.getName().replace('.', '/');
    ClassLoader loader = SERVLET.getClassLoader();
    if (passed.equals("before the switch")) {
      assertNull(transformer.transform(loader, internalName, null, null, classFile(SERVLET.getName())),
          "not woven before the switch");
    }
    List<EntryPointWeavingSwitch.PassedClassFile> passedUnwoven = transformer.weaveEntryPoints();
    if (passed.equals("after the switch")) {
      assertTrue(
          transformer.transform(loader, internalName, null, null, classFile(SERVLET.getName()))
              != null,
          "woven as it loads");
    }
    ScriptedJvm jvm = new ScriptedJvm(listed ? SERVLET : null);

    LoadedEntryPoints.retransform(
        jvm.instrumentation(), AllEntryPoints.WEAVING, AGENT, passedUnwoven);

    assertEquals(retransformed ? List.of(SERVLET) : List.of(), jvm.retransformed, "retransformed");
  }

  @Test
  void beforeTheSwitchOnlyABoundedNumberOfClassFilesAreNoted() {
    EntryPointWeavingSwitch weaving = new EntryPointWeavingSwitch();
    for (int i = 0; i < EntryPointWeavingSwitch.MOST_NOTED + 5; i++) {
      weaving.weaves(getClass().getClassLoader(), "app/Servlet" + i);
    }
    List<EntryPointWeavingSwitch.PassedClassFile> passed = weaving.turnOn();
    assertEquals(EntryPointWeavingSwitch.MOST_NOTED, passed.size());
    assertEquals("app.Servlet0", passed.get(0).name);
    assertTrue(weaving.weaves(getClass().getClassLoader(), "app/Later"), "on from now");
    assertEquals(List.of(), weaving.turnOn(), "nothing noted once on");
  }
}
