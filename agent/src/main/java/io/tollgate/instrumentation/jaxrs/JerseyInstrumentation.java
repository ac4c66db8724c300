package io.tollgate.instrumentation.jaxrs;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.tollgate.instrumentation.ClassLoaderCanSee;
import io.tollgate.instrumentation.Instrumentation;
import net.bytebuddy.agent.builder.AgentBuilder;

/**
 * Jersey's resource method invoker: the same class in Jersey 2 ({@code javax.ws.rs}) and Jersey 3
 * and later ({@code jakarta.ws.rs}).
 */
public final class JerseyInstrumentation implements Instrumentation {

  /** The one class this instrumentation changes (also read by {@code EntryPointClassFiles}). */
  public static final String INVOKER = "org.glassfish.jersey.server.model.ResourceMethodInvoker";

  @Override
  public String name() {
    return "Jersey";
  }

  @Override
  public String markerClass() {
    return INVOKER;
  }

  @Override
  public AgentBuilder apply(AgentBuilder builder, ClassLoader agentClassLoader) {
    return builder
        .type(
            named(INVOKER),
            new ClassLoaderCanSee(markerClass()))
        .transform(
            new AgentBuilder.Transformer.ForAdvice()
                .include(agentClassLoader)
                .advice(
                    named("apply")
                        .and(takesArguments(1))
                        .and(
                            takesArgument(
                                0,
                                named(
                                    "org.glassfish.jersey.server.internal.process"
                                        + ".RequestProcessingContext"))),
                    ResourceMethodInvokerAdvice.class.getName()));
  }
}
