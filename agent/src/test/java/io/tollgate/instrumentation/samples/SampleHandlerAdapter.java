package io.tollgate.instrumentation.samples;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.servlet.ModelAndView;

/** Has Spring MVC's {@code HandlerAdapter.handle} (the interface itself is not needed to weave). */
public class SampleHandlerAdapter {

  public final ModelAndView handle(
      HttpServletRequest request, HttpServletResponse response, Object handler) throws Exception {
    Events.add("body");
    if (Events.scripted("throw")) {
      throw new Exception("from the body");
    }
    return new ModelAndView("view of " + handler);
  }
}
