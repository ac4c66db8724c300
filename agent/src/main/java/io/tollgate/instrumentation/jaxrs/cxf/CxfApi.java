package io.tollgate.instrumentation.jaxrs.cxf;

import io.tollgate.instrumentation.ApiPerClass;
import io.tollgate.instrumentation.jaxrs.JaxRsResponses;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.Map;

/**
 * What the engine calls in one copy of CXF, found by reflection once, from the class of the
 * exchange its woven invoker is given. CXF's exchanges and messages are maps (keyed by class
 * names and constants), which is how most of it is read.
 */
final class CxfApi {

  private static final ApiPerClass<CxfApi> BY_EXCHANGE_CLASS =
      new ApiPerClass<CxfApi>("Apache CXF") {
        @Override
        protected CxfApi match(Class<?> exchange) throws ReflectiveOperationException {
          return new CxfApi(exchange.getClassLoader());
        }
      };

  static final String OPERATION = "org.apache.cxf.jaxrs.model.OperationResourceInfo";
  /** {@code Message.BASE_PATH}: the path (or address) the resources' paths start from. */
  static final String BASE_PATH = "org.apache.cxf.message.Message.BASE_PATH";
  /** {@code AbstractHTTPDestination.HTTP_REQUEST} and {@code HTTP_RESPONSE}. */
  static final String HTTP_REQUEST = "HTTP.REQUEST";
  static final String HTTP_RESPONSE = "HTTP.RESPONSE";

  private final Method inMessage;
  private final Method classResource;
  private final Method operationTemplate;
  private final Method classTemplate;
  private final Method templateValue;
  private final Constructor<?> contents;
  private final Class<?> response;
  private volatile JaxRsResponses refusals;

  private CxfApi(ClassLoader loader) throws ReflectiveOperationException {
    inMessage = Class.forName("org.apache.cxf.message.Exchange", false, loader)
        .getMethod("getInMessage");
    Class<?> operation = Class.forName(OPERATION, false, loader);
    classResource = operation.getMethod("getClassResourceInfo");
    operationTemplate = operation.getMethod("getURITemplate");
    classTemplate = classResource.getReturnType().getMethod("getURITemplate");
    templateValue = operationTemplate.getReturnType().getMethod("getValue");
    contents = Class.forName("org.apache.cxf.message.MessageContentsList", false, loader)
        .getConstructor(Object[].class);
    // the JAX-RS namespace CXF was built against, from a signature of its invoker
    Class<?> invoker = Class.forName(CxfModule.INVOKER, false, loader);
    String map = invoker.getDeclaredMethod("getTemplateValues",
        Class.forName("org.apache.cxf.message.Message", false, loader)).getReturnType().getName();
    response = Class.forName(map.substring(0, map.indexOf(".core.")) + ".core.Response", false,
        loader);
  }

  static CxfApi of(Object exchange) {
    return BY_EXCHANGE_CLASS.get(exchange.getClass());
  }

  /** The exchange's in message, a map. */
  Map<?, ?> inMessage(Object exchange) throws ReflectiveOperationException {
    return (Map<?, ?>) inMessage.invoke(exchange);
  }

  /** The matched operation's template, after its class's: {@code /api/orders/{id}}; or null. */
  String template(Object operation) throws ReflectiveOperationException {
    if (operation == null) {
      return null;
    }
    StringBuilder path = new StringBuilder();
    Object resource = classResource.invoke(operation);
    Object outer = resource == null ? null : classTemplate.invoke(resource);
    if (outer != null) {
      path.append(templateValue.invoke(outer));
    }
    Object own = operationTemplate.invoke(operation);
    if (own != null) {
      path.append('/').append(templateValue.invoke(own));
    }
    return path.toString();
  }

  /** What the invoker returns: the refusal as CXF's response to the resource's call. */
  Object returned(Object jaxRsResponse) throws ReflectiveOperationException {
    return contents.newInstance((Object) new Object[] {jaxRsResponse});
  }

  JaxRsResponses refusals() throws ReflectiveOperationException {
    JaxRsResponses built = refusals;
    if (built == null) {
      built = new JaxRsResponses(response);
      refusals = built;
    }
    return built;
  }
}
