package io.tollgate.instrumentation;

import io.tollgate.logging.AgentLog;
import java.lang.instrument.Instrumentation;
import java.util.List;
import java.util.function.Function;

/**
 * Retransforms classes that were loaded before {@code attach}, so that the transformers just
 * registered see them too.
 *
 * <p>In batches, because one call per class costs a safepoint each, and one call for thousands of
 * classes fails as a whole for one bad class; after a batch failed, each of its classes on its
 * own, so that one bad class costs only itself (logged with {@code whatFails}).
 */
public final class Retransformation {

  private static final int BATCH = 100;

  private Retransformation() {}

  public static void inBatches(
      Instrumentation inst, List<Class<?>> classes, Function<Class<?>, String> whatFails) {
    for (int from = 0; from < classes.size(); from += BATCH) {
      List<Class<?>> batch = classes.subList(from, Math.min(classes.size(), from + BATCH));
      try {
        inst.retransformClasses(batch.toArray(new Class<?>[0]));
      } catch (Throwable batchFailed) {
        oneByOne(inst, batch, whatFails);
      }
    }
  }

  private static void oneByOne(
      Instrumentation inst, List<Class<?>> batch, Function<Class<?>, String> whatFails) {
    for (Class<?> loaded : batch) {
      try {
        inst.retransformClasses(loaded);
      } catch (Throwable t) {
        AgentLog.warn(whatFails.apply(loaded) + ": " + t);
      }
    }
  }
}
