package io.tollgate.agent;

import io.tollgate.logging.AgentLog;
import java.util.concurrent.TimeUnit;

/**
 * The start-up thread's CPU by phase (the warm-up, the JDK's clients, the rules and the engine...),
 * for the {@code debug} line that follows {@code ready}: where that thread's CPU goes, read from
 * the agent's own log over many starts rather than from a profiler. Each mark is one read of the
 * thread's CPU counter ({@link StartupThreadCpu}), with {@code debug} only: a start without it does
 * exactly what it did. Called from the start-up thread only.
 */
final class StartupPhases {

  private static final int MOST = 8;
  private static final String[] NAMES = new String[MOST];
  private static final long[] CPU_NANOS = new long[MOST];
  private static int count;

  private StartupPhases() {}

  /** The phase {@code name} ends now, on the calling thread (the start-up thread). */
  static void ended(String name) {
    if (AgentLog.isDebug() && count < MOST) {
      NAMES[count] = name;
      CPU_NANOS[count] = StartupThreadCpu.fromSchedstat();
      count++;
    }
  }

  /** "the weaving's warm-up 21 ms, ...": each phase's CPU since the previous mark, in order. */
  static String summary() {
    StringBuilder text = new StringBuilder();
    long before = 0;
    for (int i = 0; i < count; i++) {
      if (CPU_NANOS[i] < 0) {
        return "not told here (no /proc/thread-self/schedstat)";
      }
      text.append(i == 0 ? "" : ", ").append(NAMES[i]).append(' ')
          .append(TimeUnit.NANOSECONDS.toMillis(CPU_NANOS[i] - before)).append(" ms");
      before = CPU_NANOS[i];
    }
    return text.toString();
  }
}
