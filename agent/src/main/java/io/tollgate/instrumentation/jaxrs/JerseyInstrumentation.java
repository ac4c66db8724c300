package io.tollgate.instrumentation.jaxrs;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.returns;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.tollgate.instrumentation.Instrumentation;
import net.bytebuddy.agent.builder.AgentBuilder;

/**
 * Jersey's resource method dispatcher: Jersey 2 ({@code javax.ws.rs}) and Jersey 3 and later
 * ({@code jakarta.ws.rs}) share the class name and differ in the {@code Response} they return.
 */
public final class JerseyInstrumentation implements Instrumentation {

  private static final String DISPATCHER =
      "org.glassfish.jersey.server.model.internal.AbstractJavaResourceMethodDispatcher";

  @Override
  public String name() {
    return "Jersey";
  }

  @Override
  public String markerClass() {
    return DISPATCHER;
  }

  @Override
  public AgentBuilder apply(AgentBuilder builder, ClassLoader agentClassLoader) {
    return builder
        .type(named(DISPATCHER))
        .transform(
            new AgentBuilder.Transformer.ForAdvice()
                .include(agentClassLoader)
                .advice(
                    named("dispatch")
                        .and(takesArguments(2))
                        .and(returns(named("jakarta.ws.rs.core.Response"))),
                    JakartaResourceDispatchAdvice.class.getName())
                .advice(
                    named("dispatch")
                        .and(takesArguments(2))
                        .and(returns(named("javax.ws.rs.core.Response"))),
                    JavaxResourceDispatchAdvice.class.getName()));
  }
}
