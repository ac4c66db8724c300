package io.tollgate.http;

import java.util.List;

/**
 * One request and its response as the decision engine sees them, whatever the framework: a servlet
 * request, a Jersey {@code ContainerRequest}... Everything the rules may read, and the two things
 * the engine may do to the response: add a header, or answer with a refusal.
 */
public interface HttpExchange {

  String method();

  /** The request path as sent, before normalisation, without the query. */
  String rawPath();

  /** The socket peer's address. */
  String remoteAddress();

  /** The first value of a request header, or null. */
  String header(String name);

  /**
   * The host the request was sent to, lower-case and without the port: from the {@code Host}
   * header, which HTTP/2 servers fill from {@code :authority}; null when there is none.
   */
  default String host() {
    return hostOf(header("Host"));
  }

  /** {@code api.example.com:8443} → {@code api.example.com}; {@code [::1]:80} → {@code [::1]}. */
  static String hostOf(String authority) {
    if (authority == null) {
      return null;
    }
    String a = authority.trim();
    int end;
    if (a.startsWith("[")) {
      int close = a.indexOf(']');
      end = close < 0 ? a.length() : close + 1;
    } else {
      int colon = a.indexOf(':');
      end = colon < 0 ? a.length() : colon;
    }
    return canonicalHost(a.substring(0, end));
  }

  /**
   * A host name without its port as rules compare it: lower-case, without the trailing dot
   * ({@code example.com.} names {@code example.com}); null for none.
   */
  static String canonicalHost(String name) {
    if (name == null) {
      return null;
    }
    String h = name.trim();
    if (h.endsWith(".")) {
      h = h.substring(0, h.length() - 1);
    }
    return h.isEmpty() ? null : h.toLowerCase(java.util.Locale.ROOT);
  }

  /** Every line of a request header, in order; empty when absent. */
  List<String> headerLines(String name);

  /** The authenticated user's name, or null. */
  String principalName();

  /**
   * A parameter as the Servlet API's {@code getParameter} gives it (the query string's first, then
   * the form body's), or null. It never reads a body the application has not read: while {@link
   * #formBodyUnread()} is true, a parameter that is not in the query string is not asked for
   * (the engine waits for the application to read its parameters first).
   */
  String parameter(String name);

  /** The first value of a parameter in the query string only, decoded as the container does; or null. */
  default String queryParameter(String name) {
    return null;
  }

  /**
   * The first value of a field of the form body only (URL-encoded or multipart), as the
   * application reads it, once it has; null when absent, or where the framework does not tell.
   */
  default String formParameter(String name) {
    return null;
  }

  /**
   * Whether the request may carry form fields in a body the application has not read yet: a key
   * that needs one must not be read now (reading it would consume or decode the body before the
   * application chose how), but when the application reads its parameters.
   */
  default boolean formBodyUnread() {
    return false;
  }

  /** A cookie's value, or null. */
  String cookie(String name);

  /** The matched route template ({@code /api/orders/{id}}), or null where no framework said. */
  String route();

  /** Adds a header to the response that the application is about to write. */
  void setResponseHeader(String name, String value);

  /**
   * As {@link #setResponseHeader(String, String)}, for a name and value the engine keeps with
   * their bytes (the quota headers' names, a rule's policy, a budget's recent values): a module
   * that writes headers as bytes copies them as they are; the others set the text.
   */
  default void setResponseHeader(HeaderText name, HeaderText value) {
    setResponseHeader(name.text(), value.text());
  }

  /**
   * Two headers kept with their bytes, set in this order as {@link #setResponseHeader(HeaderText,
   * HeaderText)} sets each (an allowed response's two quota headers): a module that finds its
   * framework's response for each header can find it once for both.
   */
  default void setResponseHeaders(HeaderText name, HeaderText value, HeaderText secondName,
      HeaderText secondValue) {
    setResponseHeader(name, value);
    setResponseHeader(secondName, secondValue);
  }

  /**
   * Answers the request with {@code refusal} in place of whatever its response holds, and
   * completes it: the module writes it with its framework's own API (or makes it the framework's
   * response). The engine builds the value; nothing in it calls back here.
   */
  void writeRefusal(RefusalMessage refusal);

  /** A response header the application set, or null (read after the application ran). */
  String responseHeader(String name);

  /**
   * The status of the response as the client gets it, read when the request is over; -1 when this
   * exchange cannot tell (then {@code count-when} keeps the charge).
   *
   * @param uncaught whether an exception escaped the application: the server then answers 500,
   *     unless the response was committed already, whose status stands
   */
  default int responseStatus(boolean uncaught) {
    return -1;
  }

  /**
   * Runs {@code action} once when this request is over: by default now, when the entry point
   * that began it has returned; an exchange whose framework lets requests complete
   * asynchronously runs it when they complete, fail or time out.
   */
  default void whenComplete(Runnable action) {
    action.run();
  }
}
