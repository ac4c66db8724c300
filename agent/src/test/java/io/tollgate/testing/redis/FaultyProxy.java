package io.tollgate.testing.redis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on loopback in front of a Redis server, that makes the faults a network and a busy
 * server make: replies held back by a delay ({@link #delayReplies}), every connection reset at once
 * ({@link #dropConnections}), new connections reset as soon as they are accepted ({@link
 * #refuseConnections}, as a proxy or load balancer in front of a dead server does) or once the
 * client has sent its first bytes ({@link #resetNewConnectionsPartway}, an attempt killed during
 * its handshake), and new connections refused by the kernel, nothing listening ({@link
 * #stopListening} until {@link #listenAgain}), while Redis itself keeps running and keeps its data.
 *
 * <p>The delay applies to what the server sends, each chunk held until {@code delay} after it
 * was read, in order; so a delay of 200 ms is a reply 200 ms late, however many are pipelined.
 *
 * <p>Also a program, for the fault benchmark ({@code benchmarks/run-redis-faults.sh}): {@code java
 * -cp agent/target/test-classes io.tollgate.testing.redis.FaultyProxy LISTEN_PORT REDIS_PORT}
 * reads commands on standard input, one a line: {@code delay MILLIS}, {@code drop}, {@code refuse
 * on|off} (every connection reset and nothing listening, so that an attempt to connect is refused
 * by the kernel: Redis unreachable; then listening again), {@code reset-at-accept on|off}.
 */
public final class FaultyProxy implements AutoCloseable {

  private final int upstreamPort;
  private final int listenPort;
  private volatile ServerSocket server;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private final AtomicLong delayNanos = new AtomicLong();
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong holdNanos = new AtomicLong();
  private volatile boolean refusing;
  private volatile boolean resettingPartway;
  private volatile boolean closed;

  /** Listens on a free loopback port, forwarding to {@code upstreamPort} on loopback. */
  public FaultyProxy(int upstreamPort) throws IOException {
    this(0, upstreamPort);
  }

  public FaultyProxy(int listenPort, int upstreamPort) throws IOException {
    this.upstreamPort = upstreamPort;
    this.server = listen(listenPort);
    this.listenPort = server.getLocalPort();
  }

  /** A listening socket on {@code port} (0: a free one) and its accepting thread. */
  private ServerSocket listen(int port) throws IOException {
    ServerSocket socket = new ServerSocket();
    socket.setReuseAddress(true);
    socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    Thread acceptor =
        new Thread(() -> acceptLoop(socket), "faulty-proxy-accept-" + socket.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
    return socket;
  }

  public int port() {
    return listenPort;
  }

  public String uri() {
    return "redis://127.0.0.1:" + port();
  }

  /** From now on, what the server sends reaches the client {@code millis} late. */
  public void delayReplies(long millis) {
    delayNanos.set(TimeUnit.MILLISECONDS.toNanos(millis));
  }

  /** Resets every open connection (RST): the client sees "connection reset". */
  public void dropConnections() {
    for (Socket socket : sockets) {
      reset(socket);
    }
  }

  /**
   * From now on, a new connection is forwarded to the server only {@code millis} after it was
   * accepted: a reconnect that takes that long (its handshake's reply comes that late), without
   * failing. Connections already made are not held.
   */
  public void holdNewConnections(long millis) {
    holdNanos.set(TimeUnit.MILLISECONDS.toNanos(millis));
  }

  /** While on, every new connection is reset as soon as it is accepted. */
  public void refuseConnections(boolean on) {
    refusing = on;
  }

  /**
   * While on, every new connection is accepted and then reset once the client has sent its first
   * bytes (a Redis client's handshake, {@code HELLO}): an attempt to connect that the peer took and
   * killed partway, as the next of a flapping path's resets does to a slow reconnect.
   */
  public void resetNewConnectionsPartway(boolean on) {
    resettingPartway = on;
  }

  /**
   * Closes the listening socket: from now on a connection is refused by the kernel ({@code
   * ECONNREFUSED}, nothing listens), as with no server and no proxy in front of it. Connections
   * already made are not touched. Until {@link #listenAgain}.
   */
  public synchronized void stopListening() {
    try {
      server.close();
    } catch (IOException ignored) {
      // already closed
    }
  }

  /** Listens again on the same port after {@link #stopListening} (nothing when it listens). */
  public synchronized void listenAgain() throws IOException {
    if (server.isClosed() && !closed) {
      server = listen(listenPort);
    }
  }

  /** Connections accepted so far (including those refused). */
  public long acceptedConnections() {
    return accepted.get();
  }

  private void acceptLoop(ServerSocket listening) {
    while (!closed) {
      Socket client;
      try {
        client = listening.accept();
      } catch (IOException e) {
        return; // closed
      }
      accepted.incrementAndGet();
      if (refusing) {
        reset(client);
        continue;
      }
      if (resettingPartway) {
        resetAfterFirstBytes(client);
        continue;
      }
      long hold = holdNanos.get();
      if (hold > 0) {
        Thread held = new Thread(() -> {
          try {
            TimeUnit.NANOSECONDS.sleep(hold); // the slow reconnect itself, not a synchronisation
          } catch (InterruptedException e) {
            reset(client);
            return;
          }
          forward(client);
        }, "faulty-proxy-hold");
        held.setDaemon(true);
        held.start();
        continue;
      }
      forward(client);
    }
  }

  /** Resets {@code client} once its first bytes came (or it went): on a thread of its own. */
  private void resetAfterFirstBytes(Socket client) {
    Thread killer = new Thread(() -> {
      try {
        client.getInputStream().read(new byte[1024]); // blocks until the client's first bytes
      } catch (IOException ignored) {
        // went meanwhile: reset all the same
      }
      reset(client);
    }, "faulty-proxy-reset-partway");
    killer.setDaemon(true);
    killer.start();
  }

  /** Connects to the server for {@code client} and copies both ways. */
  private void forward(Socket client) {
    if (closed) {
      reset(client);
      return;
    }
    try {
      Socket upstream = new Socket();
      upstream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), upstreamPort));
      upstream.setTcpNoDelay(true);
      client.setTcpNoDelay(true);
      sockets.add(client);
      sockets.add(upstream);
      pump(client, upstream, false);
      pump(upstream, client, true);
    } catch (IOException e) {
      reset(client); // Redis is down: as a refused connection looks to the client
    }
  }

  /** Copies {@code from} to {@code to} on a thread (and a writer thread when delayed). */
  private void pump(Socket from, Socket to, boolean delayed) {
    LinkedBlockingQueue<byte[]> queue = new LinkedBlockingQueue<>();
    LinkedBlockingQueue<Long> times = new LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> {
      byte[] buffer = new byte[16 * 1024];
      try (InputStream in = from.getInputStream()) {
        OutputStream out = to.getOutputStream();
        int n;
        while ((n = in.read(buffer)) >= 0) {
          if (!delayed) {
            out.write(buffer, 0, n);
            out.flush();
          } else {
            times.add(System.nanoTime() + delayNanos.get());
            queue.add(Arrays.copyOf(buffer, n));
          }
        }
      } catch (IOException e) {
        // one side closed or reset
      } finally {
        if (delayed) {
          times.add(-1L);
          queue.add(new byte[0]);
        } else {
          closeQuietly(from, to);
        }
      }
    }, "faulty-proxy-read");
    reader.setDaemon(true);
    reader.start();
    if (!delayed) {
      return;
    }
    Thread writer = new Thread(() -> {
      try {
        OutputStream out = to.getOutputStream();
        while (true) {
          long due = times.take();
          byte[] chunk = queue.take();
          if (due == -1L) {
            break;
          }
          long wait = due - System.nanoTime();
          if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait); // the delay itself, not a synchronisation
          }
          out.write(chunk);
          out.flush();
        }
      } catch (IOException | InterruptedException e) {
        // closed
      } finally {
        closeQuietly(from, to);
      }
    }, "faulty-proxy-write");
    writer.setDaemon(true);
    writer.start();
  }

  private void closeQuietly(Socket a, Socket b) {
    for (Socket s : new Socket[] {a, b}) {
      sockets.remove(s);
      try {
        s.close();
      } catch (IOException ignored) {
        // already closed
      }
    }
  }

  private void reset(Socket socket) {
    sockets.remove(socket);
    try {
      socket.setSoLinger(true, 0); // close with RST, not FIN
      socket.close();
    } catch (IOException ignored) {
      // already closed
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    try {
      server.close();
    } catch (IOException ignored) {
      // already closed
    }
    dropConnections();
  }

  /** The benchmark's proxy: commands on standard input (see the class comment). */
  public static void main(String[] args) throws Exception {
    try (FaultyProxy proxy =
        new FaultyProxy(Integer.parseInt(args[0]), Integer.parseInt(args[1]))) {
      System.out.println("proxy " + proxy.port() + " -> " + args[1]);
      System.out.flush();
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      String line;
      while ((line = in.readLine()) != null) {
        String[] words = line.trim().split("\\s+");
        switch (words[0]) {
          case "delay":
            proxy.delayReplies(Long.parseLong(words[1]));
            break;
          case "drop":
            proxy.dropConnections();
            break;
          case "refuse": // Redis unreachable: nothing listens, attempts refused by the kernel
            if ("on".equals(words[1])) {
              proxy.stopListening();
              proxy.dropConnections();
            } else {
              proxy.listenAgain();
            }
            break;
          case "reset-at-accept": // a proxy in front of a dead Redis: taken, then reset
            proxy.refuseConnections("on".equals(words[1]));
            if ("on".equals(words[1])) {
              proxy.dropConnections();
            }
            break;
          case "quit":
            return;
          default:
            System.out.println("unknown command: " + line);
        }
        System.out.println("ok " + line);
        System.out.flush();
      }
    }
  }
}
