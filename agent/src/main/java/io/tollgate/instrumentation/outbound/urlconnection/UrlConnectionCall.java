package io.tollgate.instrumentation.outbound.urlconnection;

import io.tollgate.instrumentation.outbound.OutboundDestination;
import java.net.HttpURLConnection;
import java.net.URL;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An {@code HttpURLConnection} about to connect, as the outbound rules see it: read once, before
 * it connects (its request headers cannot be read after), and holding no reference to it.
 */
final class UrlConnectionCall extends OutboundDestination {

  private final Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

  UrlConnectionCall(HttpURLConnection connection) {
    this(connection, connection.getURL());
  }

  private UrlConnectionCall(HttpURLConnection connection, URL url) {
    super(connection.getRequestMethod(), url.getProtocol(), url.getHost(), url.getPort(),
        url.getPath());
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
  public String header(String name) {
    return headers.get(name);
  }
}
