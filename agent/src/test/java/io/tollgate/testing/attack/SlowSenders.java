package io.tollgate.testing.attack;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The slow-sender attack of issue 28 (row 3), shared by {@code SlowSendersIT} and the benchmark
 * that gives it figures ({@code SlowSendersLoad}, {@code benchmarks/run-slow-senders.sh}):
 * connections that send a {@code POST /login} announcing 100,000 bytes of form and then one byte
 * a second, all from one client address ({@code X-Forwarded-For: }{@link #ATTACKER}). A
 * connection that gets an answer (refused) is opened again at the next tick, as an attacker
 * would.
 */
public final class SlowSenders implements AutoCloseable {

  /** The attacker's address, sent as {@code X-Forwarded-For} (a documentation address). */
  public static final String ATTACKER = "192.0.2.66";

  /** Connections that got an answer (each then opened again). */
  public final AtomicInteger answered = new AtomicInteger();
  /** Connections opened at least once (the attack is in place when all of them are). */
  public final AtomicInteger openedOnce = new AtomicInteger();
  /** Ticks of the drip run so far. */
  public final AtomicInteger ticks = new AtomicInteger();

  private final int port;
  private final Socket[] sockets;
  private final boolean[] everOpened;
  private final ScheduledExecutorService drip = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "slow-senders");
    t.setDaemon(true);
    return t;
  });

  /** Starts the attack on {@code 127.0.0.1:port} with this many connections. */
  public SlowSenders(int port, int connections) {
    this.port = port;
    this.sockets = new Socket[connections];
    this.everOpened = new boolean[connections];
    drip.scheduleAtFixedRate(this::tick, 0, 1, TimeUnit.SECONDS);
  }

  public int connections() {
    return sockets.length;
  }

  /** Each connection: opened (again) when it has none or got an answer, else one byte more. */
  private void tick() {
    for (int i = 0; i < sockets.length; i++) {
      try {
        Socket s = sockets[i];
        if (s != null && s.getInputStream().available() > 0) {
          answered.incrementAndGet();
          s.close();
          s = null;
        }
        if (s == null) {
          sockets[i] = open();
          if (!everOpened[i]) {
            everOpened[i] = true;
            openedOnce.incrementAndGet();
          }
        } else {
          s.getOutputStream().write('a');
          s.getOutputStream().flush();
        }
      } catch (IOException e) {
        closeQuietly(sockets[i]);
        sockets[i] = null;
      }
    }
    ticks.incrementAndGet();
  }

  private Socket open() throws IOException {
    Socket s = new Socket();
    s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
    OutputStream out = s.getOutputStream();
    out.write(("POST /login HTTP/1.1\r\n"
        + "Host: 127.0.0.1:" + port + "\r\n"
        + "X-Forwarded-For: " + ATTACKER + "\r\n"
        + "Content-Type: application/x-www-form-urlencoded\r\n"
        + "Content-Length: 100000\r\n"
        + "\r\n"
        + "p").getBytes(StandardCharsets.US_ASCII));
    out.flush();
    return s;
  }

  private static void closeQuietly(Socket s) {
    if (s != null) {
      try {
        s.close();
      } catch (IOException ignored) {
        // the connection is gone either way
      }
    }
  }

  @Override
  public void close() throws InterruptedException {
    drip.shutdownNow();
    drip.awaitTermination(10, TimeUnit.SECONDS);
    for (Socket s : sockets) {
      closeQuietly(s);
    }
  }
}
