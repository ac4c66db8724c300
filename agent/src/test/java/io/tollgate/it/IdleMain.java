package io.tollgate.it;

/** A JVM with no web framework at all: where the agent must warn that it found no entry point. */
public final class IdleMain {

  private IdleMain() {}

  public static void main(String[] args) throws InterruptedException {
    System.out.println("idle");
    Thread.sleep(120_000);
  }
}
