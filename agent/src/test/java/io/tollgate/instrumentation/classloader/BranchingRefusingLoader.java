package io.tollgate.instrumentation.classloader;

/**
 * Finds nothing by itself, as {@link RefusingLoaderWithTwoArguments}, but its {@code loadClass}
 * has what a woven method's bytes must keep right: a switch (its padding), a handler, locals of two
 * slots, and an object created across a branch (a stack map frame that names its {@code new}
 * instruction's offset). Its refusal says the path it took.
 */
public class BranchingRefusingLoader extends ClassLoader {
  public BranchingRefusingLoader() {
    super(null);
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    long tries = 0;
    double weight = 1.5;
    switch (name == null ? 0 : name.length() % 3) {
      case 0:
        tries++;
        break;
      case 1:
        weight *= 2;
        break;
      default:
        tries += 2;
    }
    String built;
    try {
      built = new StringBuilder(name != null && name.length() > 12 ? "long" : "short").toString();
      if (name != null && name.endsWith("Throwing")) {
        throw new IllegalStateException(built);
      }
    } catch (IllegalStateException e) {
      built = "caught";
    }
    // a StringBuilder, not +: the test rewrites this class as Java 5 wrote it (no invokedynamic)
    throw new ClassNotFoundException(new StringBuilder("refused ").append(name).append(' ')
        .append(tries).append(' ').append(weight).append(' ').append(built).toString());
  }
}
