package io.tollgate.instrumentation.classloader;

/**
 * Finds nothing by itself (so a class a woven copy returns came from the bootstrap loader);
 * overrides {@code loadClass(String, boolean)}, as Felix's, Equinox's and Tomcat's loaders do.
 */
public class RefusingLoaderWithTwoArguments extends ClassLoader {
  public RefusingLoaderWithTwoArguments() {
    super(null);
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    throw new ClassNotFoundException("refused " + name);
  }
}
