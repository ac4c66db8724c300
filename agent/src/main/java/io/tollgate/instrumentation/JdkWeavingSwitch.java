package io.tollgate.instrumentation;

import java.util.HashMap;
import java.util.Map;

/**
 * When the transformer starts weaving the JDK's entry-point classes (its HTTP clients), and which
 * of them it let pass unwoven before: {@link JdkEntryPoints#prepare} retransforms those.
 *
 * <p>Scanning the loaded classes after the switch is not enough. At start the switch is turned on
 * by the agent's start-up thread while the application's main thread runs, and an application
 * that makes its {@code HttpClient} in {@code main} loads {@code HttpClientImpl} just then. Its
 * class file may pass the transformer before the switch (unwoven) and the class be defined only
 * after the scan (the JVM lists a class once it is defined): woven by neither, every call of that
 * client went out unlimited for the life of the JVM. In a CI run on a busy machine, a rule of 5
 * calls an hour let 8 through ({@code OutboundClientIT}).
 *
 * <p>One lock makes the two sides exclusive: a class file either passes after the switch (and is
 * woven as it loads) or is noted before it, and then handed to whoever turns the switch on. Only
 * the JDK's few entry-point classes take it, once each; every other class never does.
 */
public final class JdkWeavingSwitch {

  /** Guarded by {@code this}. */
  private boolean on;
  /** Binary name to its loader (null: the boot loader); guarded by {@code this}. */
  private final Map<String, ClassLoader> passedUnwoven = new HashMap<>();

  /**
   * The transformer was shown the class file of a JDK entry-point class ({@code className},
   * internal form) by {@code loader}: whether to weave it. When not, it is noted for {@link
   * #turnOn}.
   */
  public synchronized boolean weaves(ClassLoader loader, String className) {
    if (!on) {
      passedUnwoven.put(className.replace('/', '.'), loader);
    }
    return on;
  }

  /**
   * Weaves the JDK's entry-point classes from now on.
   *
   * @return those whose class files passed unwoven before: binary name to loader (null: the boot
   *     loader's). Some may still be in the middle of their definition.
   */
  public synchronized Map<String, ClassLoader> turnOn() {
    on = true;
    Map<String, ClassLoader> passed = new HashMap<>(passedUnwoven);
    passedUnwoven.clear();
    return passed;
  }
}
