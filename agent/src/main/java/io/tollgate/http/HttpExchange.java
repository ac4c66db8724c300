package io.tollgate.http;

import java.util.List;

/**
 * One request and its response as the decision engine sees them, whatever the framework: a servlet
 * request, a Jersey {@code ContainerRequest}... Everything the rules may read, and the two things
 * the engine may do to the response.
 */
public interface HttpExchange {

  String method();

  /** The request path as sent, before normalisation, without the query. */
  String rawPath();

  /** The socket peer's address. */
  String remoteAddress();

  /** The first value of a request header, or null. */
  String header(String name);

  /** Every line of a request header, in order; empty when absent. */
  List<String> headerLines(String name);

  /** The authenticated user's name, or null. */
  String principalName();

  /** A query or form parameter, or null. Reading a form parameter consumes a form body. */
  String parameter(String name);

  /** A cookie's value, or null. */
  String cookie(String name);

  /** The matched route template ({@code /api/orders/{id}}), or null where no framework said. */
  String route();

  /** Adds a header to the response that the application is about to write. */
  void setResponseHeader(String name, String value);

  /** Replaces whatever the response holds with this one and completes it. */
  void writeResponse(int status, List<String[]> headers, String contentType, byte[] body);

  /** A response header the application set, or null (read after the application ran). */
  String responseHeader(String name);

  /**
   * Runs {@code action} once when this request is over: by default now, when the entry point
   * that began it has returned; an exchange whose framework lets requests complete
   * asynchronously runs it when they complete, fail or time out.
   */
  default void whenComplete(Runnable action) {
    action.run();
  }
}
