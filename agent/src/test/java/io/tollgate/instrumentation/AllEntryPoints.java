package io.tollgate.instrumentation;

import io.tollgate.agent.FrameworkModules;

/** The weaving of every framework module, as the agent sets it up. */
final class AllEntryPoints {

  static final EntryPointWeaving WEAVING = EntryPointWeaving.of(FrameworkModules.all());

  private AllEntryPoints() {}
}
