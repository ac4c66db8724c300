package io.tollgate.instrumentation.spring;

import io.tollgate.instrumentation.EntryPointMethod;
import io.tollgate.instrumentation.servlet.ServletNamespace;
import java.util.ArrayList;
import java.util.List;

/**
 * Spring MVC's {@code HandlerAdapter.handle}, in every implementation (annotated controllers,
 * {@code HttpRequestHandler}s, functional endpoints): Spring 5 on {@code javax.servlet} and 6+
 * on {@code jakarta.servlet}.
 */
public final class SpringMvcEntryPoints {

  // Weavers by name, each loaded when it first weaves a method, not in premain (EntryPointMethod)
  private static final String HANDLER_ADAPTER_WEAVER =
      "io.tollgate.instrumentation.spring.HandlerAdapterWeaver";

  static final String HANDLER_ADAPTER = "org.springframework.web.servlet.HandlerAdapter";
  private static final String MODEL_AND_VIEW = "Lorg/springframework/web/servlet/ModelAndView;";

  private SpringMvcEntryPoints() {}

  public static List<EntryPointMethod> all() {
    List<EntryPointMethod> methods = new ArrayList<>();
    for (ServletNamespace namespace : ServletNamespace.values()) {
      String http = namespace.type("http.").replace('.', '/');
      methods.add(EntryPointMethod.inImplementations("Spring MVC", HANDLER_ADAPTER, "handle",
          "(L" + http + "HttpServletRequest;L" + http + "HttpServletResponse;Ljava/lang/Object;)"
              + MODEL_AND_VIEW,
          HANDLER_ADAPTER_WEAVER));
    }
    return methods;
  }
}
