package io.tollgate.instrumentation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.agent.FrameworkModules;
import java.lang.reflect.Constructor;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import net.bytebuddy.jar.asm.MethodVisitor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each entry point names its weaver as a string (so that listing the entry points in premain
 * loads none of them): every name must be a weaver the agent can make.
 */
class EntryPointWeaversTest {

  static Stream<EntryPointMethod> everyEntryPoint() {
    List<EntryPointMethod> all = new ArrayList<>();
    for (FrameworkModule module : FrameworkModules.all()) {
      all.addAll(module.entryPoints());
    }
    return all.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("everyEntryPoint")
  void namesAWeaverWithTheConstructorTheWeavingCalls(EntryPointMethod method) throws Exception {
    Constructor<? extends MethodWeaver> constructor = method.weaverConstructor();
    assertTrue(MethodWeaver.class.isAssignableFrom(constructor.getDeclaringClass()));
    assertEquals(MethodVisitor.class, constructor.getParameterTypes()[0]);
    assertEquals(WovenMethod.class, constructor.getParameterTypes()[1]);
  }

  @Test
  void aNameThatIsNoWeaverFailsWhenItWouldWeaveNotBefore() {
    EntryPointMethod notAWeaver = EntryPointMethod.inClass(
        "test", "a.Client", "send", "()V", "java.lang.String");
    EntryPointMethod missing = EntryPointMethod.inClass(
        "test", "a.Client", "send", "()V", "io.tollgate.instrumentation.NoSuchWeaver");
    assertFalse(succeeds(notAWeaver));
    assertFalse(succeeds(missing));
  }

  private static boolean succeeds(EntryPointMethod method) {
    try {
      method.weaverConstructor();
      return true;
    } catch (ReflectiveOperationException | ClassCastException e) {
      return false;
    }
  }
}
