package io.tollgate.benchmarks;

import com.sun.tools.attach.VirtualMachine;

/**
 * Loads a native agent into a running JVM: {@code LoadAgentPath PID LIBRARY OPTIONS}. Used by
 * {@code profile-async.sh} to start and stop async-profiler around the measured part of a run only
 * (after the warm-up), which {@code -agentpath} at launch cannot do.
 */
public final class LoadAgentPath {

  private LoadAgentPath() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      throw new IllegalArgumentException("usage: LoadAgentPath PID LIBRARY OPTIONS");
    }
    VirtualMachine vm = VirtualMachine.attach(args[0]);
    try {
      vm.loadAgentPath(args[1], args[2]);
    } finally {
      vm.detach();
    }
  }
}
