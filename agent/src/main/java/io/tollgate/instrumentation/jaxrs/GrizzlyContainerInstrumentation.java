package io.tollgate.instrumentation.jaxrs;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.tollgate.instrumentation.ClassLoaderCanSee;
import io.tollgate.instrumentation.Instrumentation;
import net.bytebuddy.agent.builder.AgentBuilder;

/** Jersey on Grizzly without a servlet container: where the client address comes from. */
public final class GrizzlyContainerInstrumentation implements Instrumentation {

  /** The one class this instrumentation changes (also read by {@code EntryPointClassFiles}). */
  public static final String CONTAINER =
      "org.glassfish.jersey.grizzly2.httpserver.GrizzlyHttpContainer";

  @Override
  public String name() {
    return "Jersey on Grizzly";
  }

  @Override
  public String markerClass() {
    return CONTAINER;
  }

  @Override
  public AgentBuilder apply(AgentBuilder builder, ClassLoader agentClassLoader) {
    return builder
        .type(
            named(CONTAINER),
            new ClassLoaderCanSee(markerClass()))
        .transform(
            new AgentBuilder.Transformer.ForAdvice()
                .include(agentClassLoader)
                .advice(
                    named("service")
                        .and(takesArguments(2))
                        .and(takesArgument(0, named("org.glassfish.grizzly.http.server.Request"))),
                    GrizzlyContainerAdvice.class.getName()));
  }
}
