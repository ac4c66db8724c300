package io.tollgate.testing.redis;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@code redis-server} process started by the harness on a free port of 127.0.0.1, without
 * persistence ({@code --save "" --appendonly no}), and ended by its process id.
 */
public final class RedisProcess implements RedisServer, AutoCloseable {

  private static final long START_TIMEOUT_MILLIS = 15_000;

  private final Path binary;
  private final int port;
  private final Path dir;
  private final List<String> extraArgs;
  private final List<String> leadingArgs = new ArrayList<>();
  private volatile Process process;
  private volatile int tlsPort = -1;

  private RedisProcess(Path binary, int port, Path dir, List<String> extraArgs) {
    this.binary = binary;
    this.port = port;
    this.dir = dir;
    this.extraArgs = extraArgs;
  }

  /**
   * Starts a Sentinel on a free port that monitors the master at 127.0.0.1:{@code masterPort} as
   * {@code masterName} (quorum 1, down after 1 s), and waits until it answers PING.
   */
  public static RedisProcess startSentinel(Path binary, String masterName, int masterPort) {
    try {
      Path dir = Files.createTempDirectory("tollgate-sentinel-");
      Path config = dir.resolve("sentinel.conf");
      String text =
          "sentinel monitor " + masterName + " 127.0.0.1 " + masterPort + " 1\n"
              + "sentinel down-after-milliseconds " + masterName + " 1000\n"
              + "sentinel failover-timeout " + masterName + " 5000\n";
      Files.write(config, text.getBytes(StandardCharsets.UTF_8));
      RedisProcess server =
          new RedisProcess(binary, freePort(), dir, java.util.Collections.<String>emptyList());
      server.leadingArgs.add(config.toString());
      server.leadingArgs.add("--sentinel");
      server.launch();
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Starts {@code binary} with TLS on a second free port ({@link #tlsPort()}), serving {@code
   * certificate} and {@code key} (PEM) and not asking clients for certificates; the plain port
   * stays open for the harness (PING, INFO). Waits until the plain port answers PING.
   */
  public static RedisProcess startWithTls(
      Path binary, Path certificate, Path key, Path caCertificate) {
    try {
      int tlsPort = freePort();
      RedisProcess server =
          start(
              binary, freePort(), "--tls-port", Integer.toString(tlsPort), "--tls-cert-file",
              certificate.toString(), "--tls-key-file", key.toString(), "--tls-ca-cert-file",
              caCertificate.toString(), "--tls-auth-clients", "no");
      server.tlsPort = tlsPort;
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The TLS port of a server from {@link #startWithTls}; -1 otherwise. */
  public int tlsPort() {
    return tlsPort;
  }

  /** Starts {@code binary} on a free port and waits until it answers PING. */
  public static RedisProcess start(Path binary) {
    try {
      return start(binary, freePort());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Starts {@code binary} on {@code port} with more options (such as {@code --cluster-enabled yes})
   * and waits until it answers PING.
   */
  public static RedisProcess start(Path binary, int port, String... extraArgs) {
    try {
      Path dir = Files.createTempDirectory("tollgate-redis-");
      RedisProcess server =
          new RedisProcess(binary, port, dir, java.util.Arrays.asList(extraArgs));
      server.launch();
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    }
  }

  private void launch() {
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    command.addAll(leadingArgs);
    command.add("--port");
    command.add(Integer.toString(port));
    command.add("--bind");
    command.add("127.0.0.1");
    command.add("--save");
    command.add("");
    command.add("--appendonly");
    command.add("no");
    command.add("--daemonize");
    command.add("no");
    command.add("--dir");
    command.add(dir.toString());
    command.addAll(extraArgs);
    File log = dir.resolve("redis.log").toFile();
    try {
      process =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log))
              .start();
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + binary + ": " + e.getMessage(), e);
    }
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MILLIS);
    while (!Resp.ping("127.0.0.1", port)) {
      if (!process.isAlive() || System.nanoTime() - deadline > 0) {
        process.destroyForcibly();
        throw new IllegalStateException(
            binary + " did not answer PING on port " + port + " within " + START_TIMEOUT_MILLIS
                + " ms; its log:\n" + readLog(log));
      }
      sleep(20);
    }
  }

  private static String readLog(File log) {
    try {
      return new String(Files.readAllBytes(log.toPath()), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }

  @Override
  public String uri() {
    return "redis://127.0.0.1:" + port;
  }

  @Override
  public String host() {
    return "127.0.0.1";
  }

  @Override
  public int port() {
    return port;
  }

  @Override
  public String source() {
    return binary.toString();
  }

  @Override
  public boolean isOwnProcess() {
    return true;
  }

  @Override
  public long pid() {
    Process p = process;
    return p == null ? -1 : p.pid();
  }

  @Override
  public void stop() {
    end(false);
  }

  @Override
  public void kill() {
    end(true);
  }

  private void end(boolean force) {
    Process p = process;
    if (p == null) {
      return;
    }
    ProcessHandle handle = ProcessHandle.of(p.pid()).orElse(null);
    if (handle != null) {
      signal("CONT"); // a paused server cannot act on SIGTERM
      if (force) {
        handle.destroyForcibly();
      } else {
        handle.destroy();
      }
      try {
        handle.onExit().get(10, TimeUnit.SECONDS);
      } catch (Exception e) {
        handle.destroyForcibly();
      }
    }
    try {
      p.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    process = null;
  }

  @Override
  public void pause() {
    signal("STOP");
  }

  @Override
  public void resume() {
    signal("CONT");
  }

  private void signal(String name) {
    long pid = pid();
    if (pid < 0) {
      throw new IllegalStateException("redis on port " + port + " is not running");
    }
    try {
      Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).start();
      if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new IllegalStateException("kill -" + name + " " + pid + " failed");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void restart() {
    if (process != null && process.isAlive()) {
      throw new IllegalStateException("redis on port " + port + " is still running");
    }
    launch();
  }

  @Override
  public void close() {
    kill();
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public String toString() {
    return uri() + " (" + source() + ", pid " + pid() + ")";
  }
}
