package io.tollgate.instrumentation.samples;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** What the sample entry points' own code did, and what it is to do ({@link #script}). */
public final class Events {

  public static final List<String> LOG = new CopyOnWriteArrayList<>();
  public static volatile String script = "return";

  private Events() {}

  public static void add(String event) {
    LOG.add(event);
  }

  public static boolean scripted(String what) {
    return script.equals(what);
  }
}
