package io.tollgate.instrumentation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * When the transformer starts weaving the application's entry points, and which class files that
 * may declare one it let pass unwoven before: {@link LoadedEntryPoints#retransform} retransforms
 * those.
 *
 * <p>On {@code attach} the switch is turned on while the application runs, and the loaded classes
 * are listed after it. A class whose file passed the transformer just before the switch but which
 * was defined only after the listing (the JVM lists a class once it is defined) would be woven by
 * neither: its requests unlimited for the life of the JVM. The same race left the JDK's HTTP
 * client unwoven in a CI run ({@link JdkWeavingSwitch}); here it is the application's servlets,
 * filters and handlers.
 *
 * <p>Once on, a class file costs one volatile read. Before, the few class files that may declare
 * an entry point take a lock, so that each either passes after the switch (woven as it loads) or
 * is noted before it and handed to whoever turns the switch on. At most {@link #MOST_NOTED} are
 * noted: the switch may never be turned on when {@code attach} fails, and the application keeps
 * loading classes.
 */
public final class EntryPointWeavingSwitch {

  /** More than any start of the engine sees pass; beyond it, no more are noted. */
  static final int MOST_NOTED = 10_000;

  private volatile boolean on;
  /** Guarded by {@code this}. */
  private List<PassedClassFile> passedUnwoven = new ArrayList<>();

  /** A class file shown to the transformer before the switch: who loads it, and its name. */
  public static final class PassedClassFile {
    /** Its defining loader as the transformer was told: never null (application classes). */
    public final ClassLoader loader;
    /** Its binary name. */
    public final String name;

    PassedClassFile(ClassLoader loader, String name) {
      this.loader = loader;
      this.name = name;
    }
  }

  /**
   * The transformer was shown the class file of {@code className} (internal form), which may
   * declare an entry point, by {@code loader}: whether to weave it. When not, it is noted for
   * {@link #turnOn}.
   */
  public boolean weaves(ClassLoader loader, String className) {
    if (on) {
      return true;
    }
    synchronized (this) {
      if (!on && passedUnwoven.size() < MOST_NOTED) {
        passedUnwoven.add(new PassedClassFile(loader, className.replace('/', '.')));
      }
      return on;
    }
  }

  /** Whether entry points are woven from now on. */
  public boolean isOn() {
    return on;
  }

  /**
   * Weaves entry points from now on.
   *
   * @return the class files that may declare one and passed unwoven before; some of their classes
   *     may still be in the middle of their definition.
   */
  public synchronized List<PassedClassFile> turnOn() {
    on = true;
    List<PassedClassFile> passed = passedUnwoven;
    passedUnwoven = Collections.emptyList();
    return passed;
  }
}
