package org.glassfish.jersey.grizzly2.httpserver;

import io.tollgate.instrumentation.samples.Events;
import org.glassfish.grizzly.http.server.Request;
import org.glassfish.grizzly.http.server.Response;

/**
 * Stands in for Jersey's class of that name (not on the test class path) in class-file and
 * weaving tests: its {@code service} has the real one's descriptor.
 */
public final class GrizzlyHttpContainer {

  public void service(Request request, Response response) {
    Events.add("body");
    if (Events.scripted("throw")) {
      throw new IllegalStateException("from the body");
    }
  }
}
