package io.tollgate.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP proxy that holds every chunk of bytes for a fixed time in each direction: a stand-in for the
 * network between an application host and a Redis host, on a machine that has only loopback (and no
 * {@code tc netem}). With a one-way delay of d, every request/reply exchange through it takes at
 * least 2d more, so a client that needs two round trips per decision pays 4d where one that needs
 * one round trip pays 2d, as it would across a real network.
 *
 * <p>Order is kept (one queue per direction, every chunk held for the same time), bytes are never
 * merged or split differently than the kernel gave them, and pipelined requests overlap as they
 * would on a wire: the delay is latency, not a bandwidth limit. Four threads per connection (a
 * reader and a writer each way); meant for the handful of connections of the benchmarks, not for
 * production.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.tollgate.benchmarks.LatencyProxy listen=PORT
 * target=HOST:PORT delay-us=MICROS}. Prints {@code listening on PORT} once it accepts.
 */
public final class LatencyProxy {

  private static final byte[] END = new byte[0];

  private LatencyProxy() {}

  public static void main(String[] args) throws IOException {
    int listen = 0;
    String target = null;
    long delayNanos = TimeUnit.MICROSECONDS.toNanos(100);
    for (String arg : args) {
      String[] kv = arg.split("=", 2);
      switch (kv[0]) {
        case "listen": listen = Integer.parseInt(kv[1]); break;
        case "target": target = kv[1]; break;
        case "delay-us": delayNanos = TimeUnit.MICROSECONDS.toNanos(Long.parseLong(kv[1])); break;
        default: throw new IllegalArgumentException("unknown argument " + arg);
      }
    }
    if (target == null) {
      throw new IllegalArgumentException("usage: listen=PORT target=HOST:PORT delay-us=MICROS");
    }
    int colon = target.lastIndexOf(':');
    InetSocketAddress upstream =
        new InetSocketAddress(target.substring(0, colon), Integer.parseInt(target.substring(colon + 1)));
    try (ServerSocket server = new ServerSocket(listen, 128, InetAddress.getLoopbackAddress())) {
      System.out.println("listening on " + server.getLocalPort());
      System.out.flush();
      while (true) {
        Socket client = server.accept();
        Socket redis = new Socket();
        redis.connect(upstream);
        client.setTcpNoDelay(true);
        redis.setTcpNoDelay(true);
        pipe(client, redis, delayNanos, "up");
        pipe(redis, client, delayNanos, "down");
      }
    }
  }

  /** Copies {@code from} to {@code to}, each chunk written {@code delayNanos} after it was read. */
  private static void pipe(Socket from, Socket to, long delayNanos, String direction)
      throws IOException {
    BlockingQueue<Object[]> held = new LinkedBlockingQueue<>();
    InputStream in = from.getInputStream();
    OutputStream out = to.getOutputStream();
    Thread reader = new Thread(() -> {
      byte[] buffer = new byte[64 * 1024];
      try {
        int n;
        while ((n = in.read(buffer)) > 0) {
          held.add(new Object[] {System.nanoTime() + delayNanos, Arrays.copyOf(buffer, n)});
        }
      } catch (IOException closed) {
        // the connection ended: so does this direction
      }
      held.add(new Object[] {System.nanoTime() + delayNanos, END});
    }, "proxy-read-" + direction);
    Thread writer = new Thread(() -> {
      try {
        while (true) {
          Object[] chunk = held.take();
          long wait;
          while ((wait = (long) chunk[0] - System.nanoTime()) > 0) {
            LockSupport.parkNanos(wait);
          }
          byte[] bytes = (byte[]) chunk[1];
          if (bytes == END) {
            break;
          }
          out.write(bytes);
          out.flush();
        }
      } catch (IOException | InterruptedException closed) {
        // the other side went away
      }
      closeQuietly(from);
      closeQuietly(to);
    }, "proxy-write-" + direction);
    reader.setDaemon(true);
    writer.setDaemon(true);
    reader.start();
    writer.start();
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException ignored) {
      // already closed
    }
  }
}
