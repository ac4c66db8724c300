package io.tollgate.instrumentation.samples;

import jakarta.servlet.GenericServlet;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import java.io.IOException;

/** A servlet whose {@code service} does what {@link Events#script} says. No string concatenation:
 * it is also rewritten as a Java 5 class file (no stack map frames, no invokedynamic). */
public class SampleServlet extends GenericServlet {

  @Override
  public void service(ServletRequest request, ServletResponse response)
      throws ServletException, IOException {
    Events.add("body");
    if (Events.scripted("throw")) {
      throw new IOException("from the body");
    }
    if (Events.scripted("return early")) {
      return;
    }
    Events.add("body end");
  }
}
