package org.springframework.web.servlet;

/** Stands in for Spring's class of that name (not on the test class path) in weaving tests. */
public class ModelAndView {

  private final String view;

  public ModelAndView(String view) {
    this.view = view;
  }

  @Override
  public String toString() {
    return view;
  }
}
