package io.tollgate.instrumentation.spring;

import static net.bytebuddy.matcher.ElementMatchers.hasSuperType;
import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isInterface;
import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.tollgate.instrumentation.ClassLoaderCanSee;
import io.tollgate.instrumentation.Instrumentation;
import net.bytebuddy.agent.builder.AgentBuilder;

/**
 * Spring MVC's {@code HandlerAdapter.handle}, in every implementation (annotated controllers,
 * {@code HttpRequestHandler}s, functional endpoints).
 */
public final class SpringMvcInstrumentation implements Instrumentation {

  private static final String HANDLER_ADAPTER = "org.springframework.web.servlet.HandlerAdapter";

  @Override
  public String name() {
    return "Spring MVC";
  }

  @Override
  public String markerClass() {
    return HANDLER_ADAPTER;
  }

  @Override
  public AgentBuilder apply(AgentBuilder builder, ClassLoader agentClassLoader) {
    return builder
        .type(
            not(isInterface()).and(hasSuperType(named(HANDLER_ADAPTER))),
            new ClassLoaderCanSee(markerClass()))
        .transform(
            new AgentBuilder.Transformer.ForAdvice()
                .include(agentClassLoader)
                .advice(
                    isPublic().and(not(isAbstract())).and(named("handle")).and(takesArguments(3)),
                    HandlerAdapterAdvice.class.getName()));
  }
}
