package org.glassfish.jersey.server.model;

import io.tollgate.instrumentation.samples.Events;
import org.glassfish.jersey.server.ContainerResponse;
import org.glassfish.jersey.server.internal.process.RequestProcessingContext;

/**
 * Stands in for Jersey's class of that name (not on the test class path) in class-file and
 * weaving tests: its {@code apply} has the real one's descriptor, and two returns.
 */
public final class ResourceMethodInvoker {

  public ContainerResponse apply(RequestProcessingContext context) {
    Events.add("body");
    if (Events.scripted("throw")) {
      throw new IllegalStateException("from the body");
    }
    if (Events.scripted("return early")) {
      return new ContainerResponse("early response");
    }
    return new ContainerResponse("response");
  }
}
