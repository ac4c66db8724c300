import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;

/**
 * The floor for start-up: a Java agent that registers one class file transformer which changes
 * nothing. Every agent that instruments classes as they load pays at least this (the JVM calls the
 * transformer for every class, with a copy of its bytes). run-startup.sh builds it with EMPTY=1.
 */
public final class EmptyAgent {

  private EmptyAgent() {}

  public static void premain(String arguments, Instrumentation inst) {
    inst.addTransformer(
        new ClassFileTransformer() {
          @Override
          public byte[] transform(ClassLoader loader, String name, Class<?> redefined,
              ProtectionDomain domain, byte[] classFile) {
            return null;
          }
        },
        true);
  }
}
