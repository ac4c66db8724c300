package io.tollgate.agent;

import io.tollgate.instrumentation.FrameworkModule;
import io.tollgate.instrumentation.container.jetty.JettyModule;
import io.tollgate.instrumentation.container.tomcat.TomcatModule;
import io.tollgate.instrumentation.grizzly.GrizzlyModule;
import io.tollgate.instrumentation.jaxrs.cxf.CxfModule;
import io.tollgate.instrumentation.jaxrs.jersey.JerseyModule;
import io.tollgate.instrumentation.jaxrs.resteasy.ResteasyModule;
import io.tollgate.instrumentation.outbound.jdkhttp.JdkHttpClientModule;
import io.tollgate.instrumentation.outbound.urlconnection.UrlConnectionModule;
import io.tollgate.instrumentation.outbound.apache4.Apache4Module;
import io.tollgate.instrumentation.outbound.apache5.Apache5AsyncModule;
import io.tollgate.instrumentation.outbound.apache5.Apache5Module;
import io.tollgate.instrumentation.outbound.okhttp.OkHttpModule;
import io.tollgate.instrumentation.servlet.BodyReadModule;
import io.tollgate.instrumentation.servlet.ServletModule;
import io.tollgate.instrumentation.spring.SpringMvcModule;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Every framework Tollgate supports: the one place a new one is added (each is a folder under
 * {@code instrumentation/}). A module's position is the number its woven entry points pass the
 * bridge, so the order matters to nothing else. Here, above the weaving core, so that the core
 * depends on no framework.
 */
public final class FrameworkModules {

  private FrameworkModules() {}

  /** The number of the module of this class: its position in {@link #all()}. */
  public static int numberOf(Class<? extends FrameworkModule> module) {
    List<FrameworkModule> all = all();
    for (int i = 0; i < all.size(); i++) {
      if (all.get(i).getClass() == module) {
        return i;
      }
    }
    throw new IllegalArgumentException(module + " is not listed");
  }

  public static List<FrameworkModule> all() {
    return Collections.unmodifiableList(Arrays.asList(
        new ServletModule(),
        new SpringMvcModule(),
        new JerseyModule(),
        new GrizzlyModule(),
        new ResteasyModule(),
        new CxfModule(),
        new TomcatModule(),
        new JettyModule(),
        new BodyReadModule(),
        new JdkHttpClientModule(),
        new UrlConnectionModule(),
        new Apache4Module(),
        new Apache5Module(),
        new OkHttpModule(),
        new Apache5AsyncModule()));
  }
}
