package io.tollgate.instrumentation.outbound.apache5;

import io.tollgate.instrumentation.ApiPerClass;
import io.tollgate.instrumentation.DirectCalls;
import io.tollgate.instrumentation.outbound.ClientCall;
import io.tollgate.instrumentation.outbound.OutboundClient;
import io.tollgate.instrumentation.outbound.RequestTargets;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads an Apache HttpClient 5 call from what {@code doExecute(HttpHost target,
 * ClassicHttpRequest request, HttpContext)} is given: the destination from the target (the client
 * found it in the request when the app gave none), else from the request's scheme and authority;
 * the method, path and headers from the request.
 */
public final class Apache5Requests implements OutboundClient {

  private static final ApiPerClass<Apache5Calls> CALLS =
      new ApiPerClass<Apache5Calls>("Apache HttpClient 5's org.apache.hc.core5.http.HttpRequest") {
        @Override
        protected Apache5Calls match(Class<?> requestClass) throws ReflectiveOperationException {
          return DirectCalls.implement(Apache5Calls.class, calls(),
              "io.tollgate.generated.Apache5Calls", requestClass.getClassLoader());
        }
      };

  private static Map<String, String> calls() {
    Map<String, String> calls = new HashMap<>();
    calls.put("getMethod", "org.apache.hc.core5.http.HttpRequest#getMethod");
    calls.put("getPath", "org.apache.hc.core5.http.HttpRequest#getPath");
    calls.put("getScheme", "org.apache.hc.core5.http.HttpRequest#getScheme");
    calls.put("getAuthority", "org.apache.hc.core5.http.HttpRequest#getAuthority");
    calls.put("authorityHost", "org.apache.hc.core5.net.URIAuthority#getHostName");
    calls.put("authorityPort", "org.apache.hc.core5.net.URIAuthority#getPort");
    calls.put("getHostName", "org.apache.hc.core5.http.HttpHost#getHostName");
    calls.put("getPort", "org.apache.hc.core5.http.HttpHost#getPort");
    calls.put("getSchemeName", "org.apache.hc.core5.http.HttpHost#getSchemeName");
    calls.put("getFirstHeader", "org.apache.hc.core5.http.MessageHeaders#getFirstHeader");
    calls.put("getValue", "org.apache.hc.core5.http.NameValuePair#getValue");
    calls.put("getCode", "org.apache.hc.core5.http.HttpResponse#getCode");
    calls.put("consumerFailed", "org.apache.hc.core5.http.nio.AsyncResponseConsumer#failed");
    return calls;
  }

  @Override
  public ClientCall callOf(Object target, Object request) {
    if (request == null) {
      return null;
    }
    Apache5Calls calls = CALLS.get(request.getClass());
    if (calls == null) {
      return null;
    }
    String path = calls.getPath(request);
    String scheme;
    String host;
    int port;
    Object authority;
    if (target != null) {
      scheme = calls.getSchemeName(target);
      host = calls.getHostName(target);
      port = calls.getPort(target);
    } else if ((authority = calls.getAuthority(request)) != null) {
      scheme = calls.getScheme(request);
      host = calls.authorityHost(authority);
      port = calls.authorityPort(authority);
    } else if (RequestTargets.isAbsolute(path)) {
      scheme = RequestTargets.scheme(path);
      host = RequestTargets.host(path);
      port = RequestTargets.port(path);
    } else {
      return null; // no destination: the client fails the call itself
    }
    return new ClientCall(this, calls, request, calls.getMethod(request), scheme, host, port,
        RequestTargets.pathAndQuery(path));
  }

  @Override
  public String requestHeader(ClientCall call, String name) {
    return header(call.calls(), call.request(), name);
  }

  @Override
  public int status(ClientCall call, Object response) {
    Apache5Calls calls = call.calls();
    return calls.getCode(response);
  }

  @Override
  public String responseHeader(ClientCall call, Object response, String name) {
    return header(call.calls(), response, name);
  }

  /**
   * Tells the async client's response consumer that the call failed with {@code cause}, as the
   * client's own failures do: a consumer that reports to the app itself (Spring's {@code
   * WebClient} passes the client no callback, only a consumer) learns it there.
   */
  void consumerFailed(Object request, Object consumer, Exception cause) {
    Apache5Calls calls = CALLS.get(request.getClass());
    if (calls != null) {
      calls.consumerFailed(consumer, cause);
    }
  }

  private static String header(Apache5Calls calls, Object message, String name) {
    Object header = calls.getFirstHeader(message, name);
    return header == null ? null : calls.getValue(header);
  }
}
