package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The benchmark traces print on one daemon thread between them, however many jobs they have. */
class TracePrinterTest {

  @Test
  void everyPrintJobRunsOnTheOneDaemonThread() throws InterruptedException {
    Set<Thread> threads = ConcurrentHashMap.newKeySet();
    CountDownLatch ran = new CountDownLatch(6);
    for (int job = 0; job < 3; job++) {
      TracePrinter.every(1, () -> {
        threads.add(Thread.currentThread());
        ran.countDown();
      });
    }
    assertTrue(ran.await(1, TimeUnit.MINUTES), "the jobs ran");
    assertEquals(1, threads.size(), "one thread: " + threads);
    Thread printer = threads.iterator().next();
    assertEquals("tollgate-trace", printer.getName());
    assertTrue(printer.isDaemon(), "never keeps the JVM up");
  }
}
