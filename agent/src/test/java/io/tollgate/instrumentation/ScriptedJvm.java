package io.tollgate.instrumentation;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The JVM as the agent's scan of loaded classes meets it: it lists {@code loaded} (or nothing) as
 * loaded, lets modules be changed, and records what it is asked to retransform. For the races
 * between a class being defined and the agent looking for it ({@link JdkEntryPointsTest}, {@link
 * LoadedEntryPointsTest}).
 */
final class ScriptedJvm {

  /** What the agent asked to retransform, in order. */
  final List<Class<?>> retransformed = new ArrayList<>();
  private final Class<?> loaded;

  /** A JVM that lists {@code loaded} as its one loaded class; null: none. */
  ScriptedJvm(Class<?> loaded) {
    this.loaded = loaded;
  }

  Instrumentation instrumentation() {
    return (Instrumentation) Proxy.newProxyInstance(
        ScriptedJvm.class.getClassLoader(), new Class<?>[] {Instrumentation.class},
        (proxy, method, args) -> {
          switch (method.getName()) {
            case "redefineModule":
              return null;
            case "getAllLoadedClasses":
              return loaded == null ? new Class<?>[0] : new Class<?>[] {loaded};
            case "isModifiableClass":
              return true;
            case "retransformClasses":
              retransformed.addAll(Arrays.asList((Class<?>[]) args[0]));
              return null;
            default:
              throw new UnsupportedOperationException(method.getName() + Arrays.toString(args));
          }
        });
  }
}
