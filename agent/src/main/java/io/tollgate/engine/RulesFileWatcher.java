package io.tollgate.engine;

import io.tollgate.bootstrap.InternalErrors;

/**
 * Re-reads the rules file every interval and applies it when its content changed and holds still.
 *
 * <p>Polling the content, not watching events: editors that write in place, {@code mv} over the
 * file, and Kubernetes swapping a ConfigMap's symlink all change what the path reads, while each
 * fires different (or no) file-system events on the path itself. A rules file is small; reading it
 * once a second costs nothing measurable. A change is applied once two polls in a row read it
 * ({@link RulesHolder#reloadWhenSettled}): a file caught half-written is left alone.
 */
public final class RulesFileWatcher implements Runnable {

  private final RulesHolder holder;
  private final long intervalMillis;

  private RulesFileWatcher(RulesHolder holder, long intervalMillis) {
    this.holder = holder;
    this.intervalMillis = intervalMillis;
  }

  public static void start(RulesHolder holder, long intervalMillis) {
    Thread thread = new Thread(new RulesFileWatcher(holder, intervalMillis), "tollgate-rules-watcher");
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public void run() {
    while (!Thread.currentThread().isInterrupted()) {
      try {
        Thread.sleep(intervalMillis);
        holder.reloadWhenSettled();
      } catch (InterruptedException e) {
        return;
      } catch (Throwable t) {
        InternalErrors.report("reloading the rules file", t);
      }
    }
  }
}
