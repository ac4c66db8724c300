package io.tollgate.instrumentation.classloader;

/** Calls {@code loadClass} but declares none: nothing to weave. */
public final class LoadClassCaller {
  private LoadClassCaller() {}

  public static Class<?> load(ClassLoader loader, String name) throws ClassNotFoundException {
    return loader.loadClass(name);
  }
}
