import java.io.File;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.jar.JarFile;

/**
 * The floor for start-up: a Java agent that registers one class file transformer which changes
 * nothing. Every agent that instruments classes as they load pays at least this (the JVM calls the
 * transformer for every class, with a copy of its bytes). run-startup.sh builds it with EMPTY=1.
 *
 * <p>Registered as Tollgate registers its own (able to retransform; MANIFEST.MF asks for
 * {@code Can-Retransform-Classes}, so the JVM is given a JVMTI environment with
 * {@code can_retransform_classes} as it loads the agent), or, with the argument {@code plain} and
 * MANIFEST-plain.MF (mode {@code empty-plain}), as an agent that cannot retransform at all: no such
 * capability, and the class file load hook posted to the ordinary environment. The two modes
 * together say whether being able to retransform costs a start anything.
 *
 * <p>With the argument {@code boot} it also appends its own jar to the bootstrap class path, as
 * Tollgate's agent does with its jar: run-startup.sh's mode {@code empty-jar} puts this class in a
 * copy of Tollgate's jar, so that the JVM opens, reads and searches the same jar (on the class path
 * and the bootstrap class path) while no Tollgate code runs: the jar's part of the start, apart
 * from what Tollgate's code does.
 */
public final class EmptyAgent {

  private EmptyAgent() {}

  public static void premain(String arguments, Instrumentation inst) {
    boolean canRetransform = !"plain".equals(arguments);
    // Made before the jar is on the bootstrap class path: its class would be found there after
    ClassFileTransformer changesNothing =
        new ClassFileTransformer() {
          @Override
          public byte[] transform(ClassLoader loader, String name, Class<?> redefined,
              ProtectionDomain domain, byte[] classFile) {
            return null;
          }
        };
    if ("boot".equals(arguments)) {
      try {
        inst.appendToBootstrapClassLoaderSearch(new JarFile(new File(
            EmptyAgent.class.getProtectionDomain().getCodeSource().getLocation().toURI())));
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
    inst.addTransformer(changesNothing, canRetransform);
  }
}
