package io.tollgate.it;

/** A JVM that prints a line on each of its streams and ends: what else it prints is the JVM's. */
public final class PrintsAndEndsMain {

  private PrintsAndEndsMain() {}

  public static void main(String[] args) {
    System.out.println("out: the application's line");
    System.err.println("err: the application's line");
  }
}
