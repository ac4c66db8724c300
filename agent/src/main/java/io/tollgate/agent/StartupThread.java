package io.tollgate.agent;

/**
 * The agent's start-up thread ({@code tollgate-start}), begun as the first thing {@code premain}
 * does, with work that needs nothing of {@code premain}'s (the weaving's warm-up), and handed the
 * rest of the start once {@code premain} has made what that needs (the weaving, the transformer).
 *
 * <p>Why begun first: the application's main thread reaches its first entry point soon after
 * {@code premain} returns (a servlet container, ~0.1 s), and whatever the warm-up has not loaded
 * by then that thread loads itself. Begun at {@code premain}'s end, the warm-up lost that race in
 * part on servlet-jakarta; begun at its start, it runs beside {@code premain}'s own work.
 *
 * <p>One thread, not one per task: the {@code ready} line's CPU is this thread's, all of the
 * agent's start-up work off the main thread. Nothing here waits on the application: only this
 * thread waits, for {@code premain}, which hands over or, failing, lets it end.
 */
final class StartupThread {

  static final String NAME = "tollgate-start";

  private final Object lock = new Object();
  /** What runs after the first task; null until {@code premain} hands it over. */
  private Runnable rest;
  private boolean handedOver;

  private StartupThread() {}

  /** Starts the thread, which runs {@code first} at once, then waits for {@link #continueWith}. */
  static StartupThread begin(Runnable first) {
    StartupThread startup = new StartupThread();
    // An anonymous class, not a lambda: one invokedynamic bootstrap fewer in premain.
    Thread thread = new Thread(new Runnable() {
      @Override
      public void run() {
        first.run();
        Runnable then = startup.awaitRest();
        if (then != null) {
          then.run();
        }
      }
    }, NAME);
    thread.setDaemon(true);
    thread.start();
    return startup;
  }

  /** The rest of the start, run on this thread after the first task. Once; later calls ignored. */
  void continueWith(Runnable then) {
    synchronized (lock) {
      if (!handedOver) {
        rest = then;
        handedOver = true;
        lock.notifyAll();
      }
    }
  }

  /** {@code premain} ends without handing anything over (it failed): the thread ends. */
  void endIfNothingHandedOver() {
    continueWith(null);
  }

  private Runnable awaitRest() {
    boolean interrupted = false;
    synchronized (lock) {
      while (!handedOver) {
        try {
          lock.wait();
        } catch (InterruptedException e) {
          interrupted = true; // premain hands over in any case: keep waiting for it
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return rest;
  }
}
