package io.tollgate.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * No {@link Throwable} from the agent reaches the application through the woven calls: not what
 * the engine throws, and not what strikes again while that is reported (out of memory, stack
 * overflow, an exception whose {@code toString} throws, a log writer that throws).
 */
class NothingEscapesTheBridgeTest {

  private static final Object RESULT = new Object();

  @AfterEach
  void uninstall() {
    AgentLogSink.install(null);
    TollgateBridge.install(null);
  }

  @ParameterizedTest(name = "engine throws {0}, log writer throws {1}")
  @CsvSource({
    // engine throws            log writer throws
    "runtime-exception,         nothing",
    "out-of-memory,             nothing",
    "stack-overflow,            nothing",
    "hostile,                   nothing", //  toString and printStackTrace throw themselves
    "runtime-exception,         out-of-memory",
    "out-of-memory,             out-of-memory",
    "stack-overflow,            stack-overflow",
    "hostile,                   stack-overflow",
  })
  void theRequestPassesAndNothingIsThrown(String engineThrows, String logThrows) {
    AgentLogSink.install(writerThrowing(logThrows));
    TollgateBridge.install(gateThrowing(() -> failure(engineThrows)));
    long before = InternalErrors.count();
    PrintStream err = System.err;
    // the sink falls back to standard error when its writer throws: that fails the same way
    System.setErr(new PrintStream(new java.io.ByteArrayOutputStream()) {
      @Override
      public void println(String line) {
        if (!logThrows.equals("nothing")) {
          throw (Error) failure(logThrows);
        }
      }
    });
    try {
      assertNull(TollgateBridge.enter(1, null, null));
      TollgateBridge.exit(1, new Object(), null);
      assertSame(RESULT, TollgateBridge.returned(1, new Object(), RESULT));
    } finally {
      System.setErr(err);
    }
    assertEquals(before + 3, InternalErrors.count(), "each failure is counted");
  }

  @Test
  void reportingItselfNeverThrows() {
    AgentLogSink.install(writerThrowing("stack-overflow"));
    long lostBefore = InternalErrors.lostReports();
    InternalErrors.report("a hostile failure", 7, new Hostile());
    InternalErrors.report("a hostile failure without entry point", new Hostile());
    assertTrue(InternalErrors.lostReports() >= lostBefore + 2);
  }

  private static RequestGate gateThrowing(Supplier<Throwable> failure) {
    return new RequestGate() {
      @Override
      public Object enter(int entryPoint, Object first, Object second) {
        throw sneaky(failure.get());
      }

      @Override
      public void exit(int entryPoint, Object scope, Throwable thrown) {
        throw sneaky(failure.get());
      }

      @Override
      public Object returned(int entryPoint, Object scope, Object result) {
        throw sneaky(failure.get());
      }
    };
  }

  private static Consumer<String> writerThrowing(String kind) {
    return line -> {
      if (!kind.equals("nothing")) {
        throw sneaky(failure(kind));
      }
    };
  }

  private static Throwable failure(String kind) {
    switch (kind) {
      case "runtime-exception":
        return new IllegalStateException("engine bug");
      case "out-of-memory":
        return new OutOfMemoryError("Java heap space");
      case "stack-overflow":
        return new StackOverflowError();
      case "hostile":
        return new Hostile();
      default:
        throw new AssertionError(kind);
    }
  }

  /** A failure that fails again whenever it is described. */
  private static final class Hostile extends RuntimeException {
    @Override
    public String toString() {
      throw new OutOfMemoryError("while describing");
    }

    @Override
    public String getMessage() {
      throw new OutOfMemoryError("while describing");
    }

    @Override
    public void printStackTrace(PrintWriter s) {
      throw new StackOverflowError();
    }
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> RuntimeException sneaky(Throwable t) throws T {
    throw (T) t;
  }
}
