package io.tollgate.instrumentation.jaxrs;

import io.tollgate.bootstrap.Refusal;
import io.tollgate.bootstrap.TollgateBridge;
import javax.ws.rs.core.Response;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into Jersey 2's {@code AbstractJavaResourceMethodDispatcher.dispatch(resource,
 * request)}, which calls the resource method and returns its {@code javax.ws.rs.core.Response}.
 *
 * <p>On a refusal the resource method is skipped and the 429 becomes the dispatch's return value:
 * no exception, so no {@code ExceptionMapper} can rewrite it, and Jersey writes it (with response
 * filters) like any other response, with or without a servlet container.
 */
public final class JavaxResourceDispatchAdvice {

  private JavaxResourceDispatchAdvice() {}

  @Advice.OnMethodEnter(suppress = Throwable.class, skipOn = Refusal.class)
  public static Object onEnter(@Advice.Argument(1) Object containerRequest) {
    return TollgateBridge.jaxrsResourceStarted(containerRequest);
  }

  @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
  public static void onExit(
      @Advice.Enter Object decision,
      @Advice.Return(readOnly = false) Response response,
      @Advice.Thrown Throwable thrown) {
    if (decision instanceof Refusal) {
      Refusal refusal = (Refusal) decision;
      Response.ResponseBuilder builder =
          Response.status(refusal.status).entity(refusal.body).type(refusal.contentType);
      for (int i = 0; i + 1 < refusal.headers.length; i += 2) {
        builder.header(refusal.headers[i], refusal.headers[i + 1]);
      }
      response = builder.build();
    } else if (decision instanceof String[] && response != null && thrown == null) {
      String[] headers = (String[]) decision;
      for (int i = 0; i + 1 < headers.length; i += 2) {
        response.getHeaders().putSingle(headers[i], headers[i + 1]);
      }
    }
  }
}
