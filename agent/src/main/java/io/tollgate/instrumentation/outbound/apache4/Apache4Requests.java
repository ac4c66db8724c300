package io.tollgate.instrumentation.outbound.apache4;

import io.tollgate.instrumentation.ApiPerClass;
import io.tollgate.instrumentation.DirectCalls;
import io.tollgate.instrumentation.outbound.ClientCall;
import io.tollgate.instrumentation.outbound.OutboundClient;
import io.tollgate.instrumentation.outbound.RequestTargets;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads an Apache HttpClient 4 call from what {@code doExecute(HttpHost target, HttpRequest
 * request, HttpContext)} is given: the destination from the target (the client found it in the
 * request's URI when the app gave none), else from an absolute request line; the method, path and
 * headers from the request.
 */
public final class Apache4Requests implements OutboundClient {

  private static final ApiPerClass<Apache4Calls> CALLS =
      new ApiPerClass<Apache4Calls>("Apache HttpClient 4's org.apache.http.HttpRequest") {
        @Override
        protected Apache4Calls match(Class<?> requestClass) throws ReflectiveOperationException {
          return DirectCalls.implement(Apache4Calls.class, calls(),
              "io.tollgate.generated.Apache4Calls", requestClass.getClassLoader());
        }
      };

  private static Map<String, String> calls() {
    Map<String, String> calls = new HashMap<>();
    calls.put("getRequestLine", "org.apache.http.HttpRequest#getRequestLine");
    calls.put("getMethod", "org.apache.http.RequestLine#getMethod");
    calls.put("getUri", "org.apache.http.RequestLine#getUri");
    calls.put("getHostName", "org.apache.http.HttpHost#getHostName");
    calls.put("getPort", "org.apache.http.HttpHost#getPort");
    calls.put("getSchemeName", "org.apache.http.HttpHost#getSchemeName");
    calls.put("getFirstHeader", "org.apache.http.HttpMessage#getFirstHeader");
    calls.put("getValue", "org.apache.http.Header#getValue");
    calls.put("getStatusLine", "org.apache.http.HttpResponse#getStatusLine");
    calls.put("getStatusCode", "org.apache.http.StatusLine#getStatusCode");
    return calls;
  }

  @Override
  public ClientCall callOf(Object target, Object request) {
    if (request == null) {
      return null;
    }
    Apache4Calls calls = CALLS.get(request.getClass());
    if (calls == null) {
      return null;
    }
    Object line = calls.getRequestLine(request);
    String uri = calls.getUri(line);
    String scheme;
    String host;
    int port;
    if (target != null) {
      scheme = calls.getSchemeName(target);
      host = calls.getHostName(target);
      port = calls.getPort(target);
    } else if (RequestTargets.isAbsolute(uri)) {
      scheme = RequestTargets.scheme(uri);
      host = RequestTargets.host(uri);
      port = RequestTargets.port(uri);
    } else {
      return null; // no destination: the client fails the call itself
    }
    return new ClientCall(this, calls, request, calls.getMethod(line), scheme, host, port,
        RequestTargets.pathAndQuery(uri));
  }

  @Override
  public String requestHeader(ClientCall call, String name) {
    return header(call.calls(), call.request(), name);
  }

  @Override
  public int status(ClientCall call, Object response) {
    Apache4Calls calls = call.calls();
    return calls.getStatusCode(calls.getStatusLine(response));
  }

  @Override
  public String responseHeader(ClientCall call, Object response, String name) {
    return header(call.calls(), response, name);
  }

  private static String header(Apache4Calls calls, Object message, String name) {
    Object header = calls.getFirstHeader(message, name);
    return header == null ? null : calls.getValue(header);
  }
}
