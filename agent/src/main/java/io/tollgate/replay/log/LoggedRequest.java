package io.tollgate.replay.log;

import java.util.Collections;
import java.util.Locale;
import java.util.Map;

/**
 * One request as an access log recorded it: what {@code replay} feeds to the engine in place of a
 * live request. Fields a log format does not carry are null (or -1 for the status).
 */
public final class LoggedRequest {

  /** When the log says the request happened, in milliseconds since the Unix epoch. */
  public final long epochMillis;
  /** The client field ({@code %h}, {@code remote_addr}): the socket peer as the server saw it. */
  public final String clientAddress;
  /** The method, upper-case as sent ({@code GET}). */
  public final String method;
  /** The path as sent, without the query. */
  public final String path;
  /** The query string without {@code ?}, or null. */
  public final String query;
  /** The response status, or -1 when the log has none. */
  public final int status;
  /** The authenticated user ({@code %u}, {@code remote_user}), or null for none or {@code -}. */
  public final String user;
  /**
   * Request headers the log recorded, by lower-case name ({@code user-agent}, {@code referer},
   * {@code x-forwarded-for}, {@code host}...); empty when none.
   */
  public final Map<String, String> headers;
  /** The file the line came from, for messages. */
  public final String source;
  /** The line's number in {@link #source}, from 1. */
  public final long lineNumber;

  public LoggedRequest(
      long epochMillis,
      String clientAddress,
      String method,
      String path,
      String query,
      int status,
      String user,
      Map<String, String> headers,
      String source,
      long lineNumber) {
    this.epochMillis = epochMillis;
    this.clientAddress = clientAddress;
    this.method = method;
    this.path = path;
    this.query = query;
    this.status = status;
    this.user = user;
    this.headers = headers == null ? Collections.emptyMap() : headers;
    this.source = source;
    this.lineNumber = lineNumber;
  }

  /** A recorded request header by name in any case, or null. */
  public String header(String name) {
    return headers.get(name.toLowerCase(Locale.ROOT));
  }

  @Override
  public String toString() {
    return source + ":" + lineNumber + " " + method + " " + path + " " + status;
  }
}
