package io.tollgate.testing;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Named pipes for the tests of what a rules file may be: opening one for reading blocks until a
 * writer comes, which is the hazard the agent's reader must never run into.
 */
public final class Fifos {

  private Fifos() {}

  /**
   * Makes a FIFO at {@code path} with the system's {@code mkfifo}; fails, naming what is missing,
   * where it cannot: these tests must run, not be skipped, wherever the suite runs.
   */
  public static Path make(Path path) throws IOException, InterruptedException {
    Process mkfifo;
    try {
      mkfifo = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
    } catch (IOException e) {
      throw new AssertionError("this test needs the mkfifo command (coreutils) on the PATH", e);
    }
    if (!mkfifo.waitFor(60, TimeUnit.SECONDS)) {
      mkfifo.destroyForcibly();
      throw new AssertionError("mkfifo " + path + " did not end within 60 s");
    }
    if (mkfifo.exitValue() != 0) {
      throw new AssertionError("mkfifo " + path + " failed with exit status " + mkfifo.exitValue());
    }
    return path;
  }
}
