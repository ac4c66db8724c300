package org.glassfish.jersey.server.model;

import io.tollgate.instrumentation.samples.Events;
import io.tollgate.instrumentation.samples.JerseyResponses;
import org.glassfish.jersey.server.ContainerResponse;
import org.glassfish.jersey.server.internal.process.RequestProcessingContext;

/**
 * Stands in for Jersey's class of that name in class-file and weaving tests (the test classes come
 * before Jersey's jar on the class path): its {@code apply} has the real one's descriptor, and two
 * returns, of Jersey's own responses.
 */
public final class ResourceMethodInvoker {

  public ContainerResponse apply(RequestProcessingContext context) {
    Events.add("body");
    if (Events.scripted("throw")) {
      throw new IllegalStateException("from the body");
    }
    if (Events.scripted("return early")) {
      return JerseyResponses.of("early response");
    }
    return JerseyResponses.of("response");
  }
}
