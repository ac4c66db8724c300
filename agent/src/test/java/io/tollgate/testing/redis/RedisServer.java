package io.tollgate.testing.redis;

/**
 * A real Redis server for a test: where it is, and, for a server the harness started itself as a
 * process, its process id and the means to stop, kill, pause and restart it.
 */
public interface RedisServer {

  /** {@code redis://host:port} (or what REDIS_URL said). */
  String uri();

  String host();

  int port();

  /** Where the server came from: REDIS_URL, Testcontainers, or the path of the binary run. */
  String source();

  /** True when the harness runs the server as a process of its own: pid, stop, kill work. */
  boolean isOwnProcess();

  /** The server's process id; -1 unless {@link #isOwnProcess()}. */
  long pid();

  /** Stops the server gracefully (SIGTERM) and waits until its process has exited. */
  void stop();

  /** Kills the server (SIGKILL, by process id) and waits until its process has exited. */
  void kill();

  /** Freezes the server (SIGSTOP): connections stay open, nothing answers. */
  void pause();

  /** Undoes {@link #pause()} (SIGCONT). */
  void resume();

  /** Starts the server again on the same port, after {@link #stop()} or {@link #kill()}. */
  void restart();

  /** Sends one command over a fresh connection and returns the reply (see {@link Resp}). */
  default Object call(String... command) {
    return Resp.call(host(), port(), command);
  }
}
