package io.tollgate.instrumentation.servlet;

/**
 * The two Servlet APIs: the same types under {@code javax.servlet} (Servlet 4 and earlier) and
 * {@code jakarta.servlet} (Servlet 5 and later). One instrumentation serves both.
 */
public enum ServletNamespace {
  JAVAX("javax.servlet", JavaxServletAdvice.class.getName()),
  JAKARTA("jakarta.servlet", JakartaServletAdvice.class.getName());

  private final String packageName;
  private final String adviceClassName;

  ServletNamespace(String packageName, String adviceClassName) {
    this.packageName = packageName;
    this.adviceClassName = adviceClassName;
  }

  public String type(String simpleName) {
    return packageName + "." + simpleName;
  }

  public String packageName() {
    return packageName;
  }

  /** By name, so that the advice class is never loaded by the agent's own class loader. */
  String adviceClassName() {
    return adviceClassName;
  }
}
