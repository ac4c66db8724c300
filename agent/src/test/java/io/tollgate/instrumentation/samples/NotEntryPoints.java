package io.tollgate.instrumentation.samples;

import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;

/** Methods that look like entry points and are not: left alone. */
public abstract class NotEntryPoints {

  /** Static: not an instance's entry point. */
  public static void service(ServletRequest request, ServletResponse response, int extra) {}

  /** Another result type: not {@code Servlet.service}. */
  public int service(ServletRequest request, ServletResponse response) {
    return 1;
  }

  /** Not public. */
  void doFilter(ServletRequest request, ServletResponse response, Object chain) {}

  /** Abstract: no code to weave. */
  public abstract void doFilter(
      ServletRequest request, ServletResponse response, jakarta.servlet.FilterChain chain);
}
