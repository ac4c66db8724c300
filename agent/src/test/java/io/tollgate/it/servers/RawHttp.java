package io.tollgate.it.servers;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, one request per connection. Java's HttpClient hides the status
 * line's reason phrase, and the reason phrase is one of the things the matrix checks.
 */
final class RawHttp {

  private static final int TIMEOUT_MILLIS = 20_000;

  private RawHttp() {}

  /** One answer: the status line as sent, the headers (names in lower case), the decoded body. */
  static final class Response {
    final String statusLine;
    final int status;
    final Map<String, String> headers;
    final String body;

    Response(String statusLine, int status, Map<String, String> headers, String body) {
      this.statusLine = statusLine;
      this.status = status;
      this.headers = headers;
      this.body = body;
    }

    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }

    @Override
    public String toString() {
      return statusLine + " " + headers + " " + body;
    }
  }

  static Response get(int port, String path) throws IOException {
    return send("GET", port, path);
  }

  static Response send(String method, int port, String path) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), TIMEOUT_MILLIS);
      socket.setSoTimeout(TIMEOUT_MILLIS);
      String request = method + " " + path + " HTTP/1.1\r\n"
          + "Host: 127.0.0.1:" + port + "\r\n"
          + "Connection: close\r\n"
          + (method.equals("POST") ? "Content-Length: 0\r\n" : "")
          + "\r\n";
      OutputStream out = socket.getOutputStream();
      out.write(request.getBytes(StandardCharsets.US_ASCII));
      out.flush();
      return parse(socket.getInputStream().readAllBytes());
    }
  }

  private static Response parse(byte[] raw) throws IOException {
    int headEnd = indexOf(raw, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    if (headEnd < 0) {
      throw new IOException("no complete response head in " + raw.length + " bytes: "
          + new String(raw, StandardCharsets.ISO_8859_1));
    }
    String[] head = new String(raw, 0, headEnd, StandardCharsets.ISO_8859_1).split("\r\n");
    String statusLine = head[0];
    int status = Integer.parseInt(statusLine.split(" ", 3)[1]);
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < head.length; i++) {
      int colon = head[i].indexOf(':');
      String name = head[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = head[i].substring(colon + 1).trim();
      headers.merge(name, value, (a, b) -> a + ", " + b);
    }
    byte[] body = java.util.Arrays.copyOfRange(raw, headEnd + 4, raw.length);
    if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      body = dechunk(body);
    }
    return new Response(statusLine, status, headers, new String(body, StandardCharsets.UTF_8));
  }

  private static byte[] dechunk(byte[] chunked) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    InputStream in = new java.io.ByteArrayInputStream(chunked);
    while (true) {
      String sizeLine = readLine(in);
      int size = Integer.parseInt(sizeLine.split(";", 2)[0].trim(), 16);
      if (size == 0) {
        return out.toByteArray();
      }
      out.write(in.readNBytes(size));
      readLine(in);
    }
  }

  private static String readLine(InputStream in) throws IOException {
    StringBuilder line = new StringBuilder();
    int c;
    while ((c = in.read()) != -1 && c != '\n') {
      if (c != '\r') {
        line.append((char) c);
      }
    }
    if (c == -1 && line.length() == 0) {
      throw new IOException("chunked body ended early");
    }
    return line.toString();
  }

  private static int indexOf(byte[] data, byte[] pattern) {
    outer:
    for (int i = 0; i + pattern.length <= data.length; i++) {
      for (int j = 0; j < pattern.length; j++) {
        if (data[i + j] != pattern[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
