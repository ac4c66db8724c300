package io.tollgate.it;

import java.util.logging.LogManager;

/**
 * An application that installs its own java.util.logging manager in its {@code main}, as JBoss
 * Modules does for WildFly: a while after the JVM started (the agent's start has long run by
 * then), it names {@link AppLogManager} and says which manager java.util.logging took.
 */
public final class LogManagerMain {

  private LogManagerMain() {}

  /** The application's own manager. */
  public static final class AppLogManager extends LogManager {
    public AppLogManager() {}
  }

  public static void main(String[] args) throws InterruptedException {
    Thread.sleep(Long.parseLong(args.length > 0 ? args[0] : "3000"));
    System.setProperty("java.util.logging.manager", AppLogManager.class.getName());
    System.out.println("log manager: " + LogManager.getLogManager().getClass().getName());
  }
}
