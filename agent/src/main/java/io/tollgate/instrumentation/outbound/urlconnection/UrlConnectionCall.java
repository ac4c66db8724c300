package io.tollgate.instrumentation.outbound.urlconnection;

import io.tollgate.outbound.OutboundCall;
import java.net.HttpURLConnection;
import java.net.URL;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * An {@code HttpURLConnection} about to connect, as the outbound rules see it: read once, before
 * it connects (its request headers cannot be read after), and holding no reference to it.
 */
final class UrlConnectionCall implements OutboundCall {

  private final String method;
  private final String host;
  private final int port;
  private final String path;
  private final Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

  UrlConnectionCall(HttpURLConnection connection) {
    URL url = connection.getURL();
    this.method = connection.getRequestMethod().toUpperCase(Locale.ROOT);
    String h = url.getHost() == null ? "" : url.getHost().toLowerCase(Locale.ROOT);
    this.host = h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
    this.port = url.getPort() > 0 ? url.getPort() : url.getDefaultPort();
    String p = url.getPath();
    this.path = p == null || p.isEmpty() ? "/" : p;
    try {
      for (Map.Entry<String, List<String>> e : connection.getRequestProperties().entrySet()) {
        if (e.getKey() != null && !e.getValue().isEmpty()) {
          headers.put(e.getKey(), e.getValue().get(0));
        }
      }
    } catch (IllegalStateException alreadyConnected) {
      // connected already (by a call the agent did not see): keyed without its headers
    }
  }

  @Override
  public String method() {
    return method;
  }

  @Override
  public String host() {
    return host;
  }

  @Override
  public int port() {
    return port;
  }

  @Override
  public String path() {
    return path;
  }

  @Override
  public String header(String name) {
    return headers.get(name);
  }
}
