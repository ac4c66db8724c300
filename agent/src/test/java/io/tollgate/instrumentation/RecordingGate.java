package io.tollgate.instrumentation;

import io.tollgate.bootstrap.RequestGate;
import io.tollgate.instrumentation.samples.Events;
import io.tollgate.instrumentation.samples.JerseyResponses;

/**
 * An engine behind the bridge that records what the woven code asked it, into the same log as the
 * samples' own code, and answers every "started" with {@link #answer} (or throws {@link #failure}).
 */
final class RecordingGate implements RequestGate {

  volatile Object answer;
  volatile RuntimeException failure;

  private Object started(String event) {
    Events.add(event);
    if (failure != null) {
      throw failure;
    }
    return answer;
  }

  @Override
  public Object servletRequestStarted(Object request, Object response) {
    return started("started " + request + " " + response);
  }

  @Override
  public void servletRequestEnded(Object scope, Throwable thrown) {
    Events.add("ended " + scope + (thrown == null ? "" : " " + thrown.getClass().getSimpleName()));
  }

  @Override
  public Object springHandlerStarted(Object request, Object response) {
    return started("started " + request + " " + response);
  }

  @Override
  public Object jaxrsResourceStarted(Object processingContext) {
    return started("started " + processingContext);
  }

  @Override
  public void jaxrsResourceEnded(Object decision, Object response) {
    Events.add("ended " + decision + " " + JerseyResponses.describe(response));
  }

  @Override
  public void serverRequestStarted(Object serverRequest) {
    started("started " + serverRequest);
  }

  @Override
  public void serverRequestEnded() {
    Events.add("ended");
  }
}
