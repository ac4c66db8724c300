package io.tollgate.replay;

import io.tollgate.http.HttpExchange;
import io.tollgate.http.QueryStrings;
import io.tollgate.replay.log.LoggedRequest;
import java.util.Collections;
import java.util.List;

/**
 * A logged request as the engine sees a live one: the client address is the log's client field
 * (so {@code trusted-proxies} applies to a logged {@code X-Forwarded-For} as it would live), the
 * headers are those the log recorded, {@code param:} reads the query string, the principal is the
 * log's user. A log knows no route template: {@link #route()} is null, so rules on routes are not
 * replayed. Whatever the engine writes to the response goes nowhere; a response header it reads
 * (a rule's {@code cost-header}) is the logged field of that name, when the log recorded one.
 */
final class LoggedExchange implements HttpExchange {

  private final LoggedRequest request;

  LoggedExchange(LoggedRequest request) {
    this.request = request;
  }

  LoggedRequest request() {
    return request;
  }

  @Override
  public String method() {
    return request.method;
  }

  @Override
  public String rawPath() {
    return request.path;
  }

  @Override
  public String remoteAddress() {
    return request.clientAddress;
  }

  @Override
  public String header(String name) {
    return request.headers.isEmpty() ? null : request.header(name);
  }

  @Override
  public List<String> headerLines(String name) {
    String value = header(name);
    return value == null ? Collections.<String>emptyList() : Collections.singletonList(value);
  }

  @Override
  public String principalName() {
    return request.user;
  }

  @Override
  public String parameter(String name) {
    // An access log has no bodies: a logged request's parameters are its query string's.
    return QueryStrings.first(request.query, name);
  }

  @Override
  public String queryParameter(String name) {
    return parameter(name);
  }

  @Override
  public String cookie(String name) {
    return Cookies.value(header("Cookie"), name);
  }

  @Override
  public String route() {
    return null;
  }

  @Override
  public void setResponseHeader(String name, String value) {
    // the response was sent long ago
  }

  @Override
  public void writeRefusal(io.tollgate.http.RefusalMessage refusal) {
    // the response was sent long ago
  }

  @Override
  public String responseHeader(String name) {
    return header(name);
  }

  /** The status the log recorded (-1 when it has none: then {@code count-when} keeps the charge). */
  @Override
  public int responseStatus(boolean uncaught) {
    return request.status;
  }
}
