package io.tollgate.instrumentation;

import io.tollgate.bootstrap.RequestGate;
import io.tollgate.instrumentation.samples.Events;
import io.tollgate.instrumentation.samples.JerseyResponses;

/**
 * An engine behind the bridge that records what the woven code asked it, into the same log as the
 * samples' own code, and answers every "started" with {@link #answer} (or throws {@link #failure}).
 * It records the entry point's number too, in {@link #entryPoints}.
 */
final class RecordingGate implements RequestGate {

  volatile Object answer;
  volatile RuntimeException failure;
  final java.util.List<Integer> entryPoints = new java.util.concurrent.CopyOnWriteArrayList<>();

  @Override
  public Object enter(int entryPoint, Object first, Object second) {
    entryPoints.add(entryPoint);
    Events.add("started " + first + " " + second);
    if (failure != null) {
      throw failure;
    }
    return answer;
  }

  @Override
  public void exit(int entryPoint, Object scope, Throwable thrown) {
    entryPoints.add(entryPoint);
    Events.add("ended " + scope + (thrown == null ? "" : " " + thrown.getClass().getSimpleName()));
  }

  @Override
  public Object returned(int entryPoint, Object scope, Object result) {
    entryPoints.add(entryPoint);
    Events.add("ended " + scope + " " + JerseyResponses.describe(result));
    return result;
  }
}
