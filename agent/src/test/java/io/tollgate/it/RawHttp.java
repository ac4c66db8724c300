package io.tollgate.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One HTTP/1.1 request written byte for byte on its own connection, as a test needs it: the body
 * in the exact bytes given (any charset), sent whole, in chunks ({@code Transfer-Encoding:
 * chunked}) or in separately flushed pieces; and the response read back as bytes, status and
 * body. No client library normalises anything on the way. A response that is not whole (no
 * complete head, a body shorter or longer than its {@code Content-Length}, a chunked body cut
 * short) is an {@link IOException}: a server, or the agent refusing, must always answer in full.
 */
final class RawHttp {

  /** How the body goes on the wire. */
  enum Framing {
    /** With {@code Content-Length}, in one write. */
    WHOLE,
    /** {@code Transfer-Encoding: chunked}, one chunk per piece. */
    CHUNKED,
    /** With {@code Content-Length}, each piece written and flushed on its own. */
    PIECES
  }

  /** A response: status and body bytes. */
  static final class Response {
    final int status;
    final byte[] body;

    Response(int status, byte[] body) {
      this.status = status;
      this.body = body;
    }

    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
      return status + "\n" + text();
    }
  }

  private RawHttp() {}

  /**
   * Sends {@code method target} to {@code port} with {@code headers} ({@code "Name: value"}) and
   * {@code body} cut into {@code pieces} (at least 1) as {@code framing} says; reads the whole
   * response (the request asks the server to close the connection).
   */
  static Response send(int port, String method, String target, List<String> headers, byte[] body,
      Framing framing, int pieces) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(20_000);
      OutputStream out = socket.getOutputStream();
      StringBuilder head = new StringBuilder();
      head.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
      head.append("Host: 127.0.0.1:").append(port).append("\r\n");
      head.append("Connection: close\r\n");
      for (String header : headers) {
        head.append(header).append("\r\n");
      }
      if (framing == Framing.CHUNKED) {
        head.append("Transfer-Encoding: chunked\r\n");
      } else {
        head.append("Content-Length: ").append(body.length).append("\r\n");
      }
      head.append("\r\n");
      out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      for (byte[] piece : cut(body, pieces)) {
        if (framing == Framing.CHUNKED) {
          out.write((Integer.toHexString(piece.length) + "\r\n")
              .getBytes(StandardCharsets.ISO_8859_1));
          out.write(piece);
          out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        } else {
          out.write(piece);
        }
        out.flush();
      }
      if (framing == Framing.CHUNKED) {
        out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
      }
      return read(socket.getInputStream());
    }
  }

  /**
   * The status of {@code GET target}, on a connection of its own: for a test that sends many
   * requests back to back, which the JDK 17 {@code HttpClient}'s pool can fail on its own (see
   * {@link SlowSendersIT}).
   */
  static int getStatus(int port, String target) throws IOException {
    return send(port, "GET", target, List.of(), new byte[0], Framing.WHOLE, 1).status;
  }

  private static List<byte[]> cut(byte[] body, int pieces) {
    List<byte[]> out = new ArrayList<>();
    int size = Math.max(1, (body.length + pieces - 1) / Math.max(1, pieces));
    for (int from = 0; from < body.length; from += size) {
      int to = Math.min(body.length, from + size);
      byte[] piece = new byte[to - from];
      System.arraycopy(body, from, piece, 0, piece.length);
      out.add(piece);
    }
    return out;
  }

  /** Reads a response to its end (the connection closes), undoing a chunked body. */
  private static Response read(InputStream in) throws IOException {
    byte[] all = in.readAllBytes();
    int headEnd = indexOf(all, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), 0);
    if (headEnd < 0) {
      throw new IOException("no complete response head: "
          + new String(all, StandardCharsets.ISO_8859_1));
    }
    String head = new String(all, 0, headEnd, StandardCharsets.ISO_8859_1);
    int status = Integer.parseInt(head.substring(9, 12));
    byte[] rest = java.util.Arrays.copyOfRange(all, headEnd + 4, all.length);
    boolean chunked = head.toLowerCase(Locale.ROOT).contains("\r\ntransfer-encoding: chunked");
    long declared = contentLength(head);
    if (!chunked && declared >= 0 && declared != rest.length) {
      throw new IOException("a body of " + rest.length + " bytes after Content-Length: " + declared
          + "\n" + head);
    }
    return new Response(status, chunked ? unchunk(rest) : rest);
  }

  /** The head's {@code Content-Length}, or -1 without one. */
  private static long contentLength(String head) {
    for (String line : head.split("\r\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("Content-Length")) {
        return Long.parseLong(line.substring(colon + 1).trim());
      }
    }
    return -1;
  }

  private static byte[] unchunk(byte[] chunked) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    int at = 0;
    while (true) {
      int lineEnd = indexOf(chunked, new byte[] {'\r', '\n'}, at);
      if (lineEnd < 0) {
        throw new IOException("truncated chunked body");
      }
      String sizeLine = new String(chunked, at, lineEnd - at, StandardCharsets.ISO_8859_1);
      int semicolon = sizeLine.indexOf(';');
      int size = Integer.parseInt(
          (semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
      if (size == 0) {
        return body.toByteArray();
      }
      if (lineEnd + 2 + size > chunked.length) {
        throw new IOException("truncated chunked body");
      }
      body.write(chunked, lineEnd + 2, size);
      at = lineEnd + 2 + size + 2;
    }
  }

  private static int indexOf(byte[] data, byte[] what, int from) {
    outer:
    for (int i = from; i + what.length <= data.length; i++) {
      for (int j = 0; j < what.length; j++) {
        if (data[i + j] != what[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
