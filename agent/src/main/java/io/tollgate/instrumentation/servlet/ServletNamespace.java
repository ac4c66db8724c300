package io.tollgate.instrumentation.servlet;

/**
 * The two Servlet APIs: the same types under {@code javax.servlet} (Servlet 4 and earlier) and
 * {@code jakarta.servlet} (Servlet 5 and later). One set of entry points serves both.
 */
public enum ServletNamespace {
  JAVAX("javax.servlet"),
  JAKARTA("jakarta.servlet");

  private final String packageName;

  ServletNamespace(String packageName) {
    this.packageName = packageName;
  }

  public String type(String simpleName) {
    return packageName + "." + simpleName;
  }

  public String packageName() {
    return packageName;
  }
}
