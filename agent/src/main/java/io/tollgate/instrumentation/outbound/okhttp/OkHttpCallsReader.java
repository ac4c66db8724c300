package io.tollgate.instrumentation.outbound.okhttp;

import io.tollgate.instrumentation.ApiPerClass;
import io.tollgate.instrumentation.DirectCalls;
import io.tollgate.instrumentation.outbound.ClientCall;
import io.tollgate.instrumentation.outbound.OutboundClient;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads an OkHttp call from its {@code RealCall}: the app's request as it made it, before its
 * interceptors (which may add headers, but rarely change where the call goes).
 */
public final class OkHttpCallsReader implements OutboundClient {

  private static final ApiPerClass<OkHttpCalls> CALLS =
      new ApiPerClass<OkHttpCalls>("OkHttp's okhttp3.Call") {
        @Override
        protected OkHttpCalls match(Class<?> callClass) throws ReflectiveOperationException {
          return DirectCalls.implement(OkHttpCalls.class, calls(),
              "io.tollgate.generated.OkHttpCalls", callClass.getClassLoader());
        }
      };

  private static Map<String, String> calls() {
    Map<String, String> calls = new HashMap<>();
    calls.put("request", "okhttp3.Call#request");
    calls.put("method", "okhttp3.Request#method");
    calls.put("url", "okhttp3.Request#url");
    calls.put("requestHeader", "okhttp3.Request#header");
    calls.put("scheme", "okhttp3.HttpUrl#scheme");
    calls.put("host", "okhttp3.HttpUrl#host");
    calls.put("port", "okhttp3.HttpUrl#port");
    calls.put("encodedPath", "okhttp3.HttpUrl#encodedPath");
    calls.put("code", "okhttp3.Response#code");
    calls.put("responseHeader", "okhttp3.Response#header");
    return calls;
  }

  /** {@code first} is the {@code RealCall}; {@code second} is not used. */
  @Override
  public ClientCall callOf(Object realCall, Object unused) {
    if (realCall == null) {
      return null;
    }
    OkHttpCalls calls = CALLS.get(realCall.getClass());
    if (calls == null) {
      return null;
    }
    Object request = calls.request(realCall);
    Object url = calls.url(request);
    return new ClientCall(this, calls, request, calls.method(request), calls.scheme(url),
        calls.host(url), calls.port(url), calls.encodedPath(url));
  }

  @Override
  public String requestHeader(ClientCall call, String name) {
    OkHttpCalls calls = call.calls();
    return calls.requestHeader(call.request(), name);
  }

  @Override
  public int status(ClientCall call, Object response) {
    OkHttpCalls calls = call.calls();
    return calls.code(response);
  }

  @Override
  public String responseHeader(ClientCall call, Object response, String name) {
    OkHttpCalls calls = call.calls();
    return calls.responseHeader(response, name);
  }
}
