package io.tollgate.instrumentation.classloader;

/**
 * Finds nothing by itself; overrides {@code loadClass(String)}, as JBoss Modules' loaders do
 * (with both).
 */
public class RefusingLoaderWithOneArgument extends ClassLoader {
  public RefusingLoaderWithOneArgument() {
    super(null);
  }

  @Override
  public Class<?> loadClass(String name) throws ClassNotFoundException {
    // a loop at the method's first instruction: the original code keeps its own frame there
    for (int tries = 0; tries < 2; tries++) {
      if (name == null) {
        throw new ClassNotFoundException("refused null, try " + tries);
      }
    }
    throw new ClassNotFoundException("refused " + name);
  }
}
