package io.tollgate.engine;

import io.tollgate.http.HttpExchange;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A request as the engine sees it, built in a test. */
final class FakeExchange implements HttpExchange {
  final String method;
  final String path;
  String remoteAddress = "203.0.113.7";
  final Map<String, String> headers = new HashMap<>();
  final Map<String, String> responseHeaders = new HashMap<>();
  final Map<String, String> parameters = new HashMap<>();
  /** A request header whose reading throws, standing in for a framework that fails; or null. */
  String failingHeader;
  /** Whether setting a response header throws (a response the application already froze). */
  boolean responseRejectsHeaders;

  FakeExchange(String method, String path) {
    this.method = method;
    this.path = path;
  }

  static FakeExchange get(String path) {
    return new FakeExchange("GET", path);
  }

  FakeExchange from(String address) {
    this.remoteAddress = address;
    return this;
  }

  FakeExchange parameter(String name, String value) {
    parameters.put(name, value);
    return this;
  }

  FakeExchange header(String name, String value) {
    headers.put(name.toLowerCase(java.util.Locale.ROOT), value);
    return this;
  }

  @Override
  public String method() {
    return method;
  }

  @Override
  public String rawPath() {
    return path;
  }

  @Override
  public String remoteAddress() {
    return remoteAddress;
  }

  @Override
  public String header(String name) {
    if (name.equalsIgnoreCase(failingHeader)) {
      throw new IllegalStateException("the framework failed reading " + name);
    }
    return headers.get(name.toLowerCase(java.util.Locale.ROOT));
  }

  @Override
  public List<String> headerLines(String name) {
    String v = header(name);
    return v == null ? Collections.<String>emptyList() : Collections.singletonList(v);
  }

  @Override
  public String principalName() {
    return null;
  }

  @Override
  public String parameter(String name) {
    return parameters.get(name);
  }

  @Override
  public String cookie(String name) {
    return null;
  }

  @Override
  public String route() {
    return null;
  }

  @Override
  public void setResponseHeader(String name, String value) {
    if (responseRejectsHeaders) {
      throw new IllegalStateException("the response takes no more headers");
    }
    responseHeaders.put(name, value);
  }

  /** The refusal the engine answered with, or null. */
  io.tollgate.http.RefusalMessage refusal;

  @Override
  public void writeRefusal(io.tollgate.http.RefusalMessage refusal) {
    this.refusal = refusal;
  }

  @Override
  public String responseHeader(String name) {
    return responseHeaders.get(name);
  }
}
