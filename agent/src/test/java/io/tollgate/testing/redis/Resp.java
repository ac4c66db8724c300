package io.tollgate.testing.redis;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A minimal RESP2 client for the harness: one command per connection, no dependency on the client
 * under test. Replies: simple strings and bulk strings as String, integers as Long, arrays as List,
 * nil as null; an error reply throws {@link IllegalStateException} with its text.
 */
public final class Resp {

  private Resp() {}

  public static Object call(String host, int port, String... command) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), 2_000);
      socket.setSoTimeout(5_000);
      OutputStream out = socket.getOutputStream();
      ByteArrayOutputStream request = new ByteArrayOutputStream();
      write(request, "*" + command.length + "\r\n");
      for (String part : command) {
        byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
        write(request, "$" + bytes.length + "\r\n");
        request.write(bytes);
        write(request, "\r\n");
      }
      out.write(request.toByteArray());
      out.flush();
      return read(new BufferedInputStream(socket.getInputStream()));
    } catch (IOException e) {
      throw new UncheckedIOException("redis " + host + ":" + port + ": " + e.getMessage(), e);
    }
  }

  /** True if the server answers PING with PONG now. */
  public static boolean ping(String host, int port) {
    try {
      return "PONG".equals(call(host, port, "PING"));
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static void write(ByteArrayOutputStream out, String text) throws IOException {
    out.write(text.getBytes(StandardCharsets.UTF_8));
  }

  private static Object read(InputStream in) throws IOException {
    int type = in.read();
    if (type < 0) {
      throw new IOException("connection closed");
    }
    String line = line(in);
    switch (type) {
      case '+':
        return line;
      case '-':
        throw new IllegalStateException(line);
      case ':':
        return Long.parseLong(line);
      case '$':
        {
          int length = Integer.parseInt(line);
          if (length < 0) {
            return null;
          }
          byte[] bytes = new byte[length];
          int read = 0;
          while (read < length) {
            int n = in.read(bytes, read, length - read);
            if (n < 0) {
              throw new IOException("connection closed");
            }
            read += n;
          }
          line(in);
          return new String(bytes, StandardCharsets.UTF_8);
        }
      case '*':
        {
          int count = Integer.parseInt(line);
          if (count < 0) {
            return null;
          }
          List<Object> items = new ArrayList<>(count);
          for (int i = 0; i < count; i++) {
            items.add(read(in));
          }
          return items;
        }
      default:
        throw new IOException("unexpected reply type " + (char) type);
    }
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    int previous = -1;
    while (true) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("connection closed");
      }
      if (previous == '\r' && b == '\n') {
        byte[] bytes = buffer.toByteArray();
        return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
      }
      buffer.write(b);
      previous = b;
    }
  }
}
