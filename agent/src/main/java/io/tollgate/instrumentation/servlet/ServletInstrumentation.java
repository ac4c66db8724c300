package io.tollgate.instrumentation.servlet;

import static net.bytebuddy.matcher.ElementMatchers.hasSuperType;
import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isInterface;
import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.tollgate.instrumentation.ClassLoaderCanSee;
import io.tollgate.instrumentation.Instrumentation;
import net.bytebuddy.agent.builder.AgentBuilder;

/**
 * Intercepts {@code Servlet.service(ServletRequest, ServletResponse)} and
 * {@code Filter.doFilter(ServletRequest, ServletResponse, FilterChain)} of every concrete
 * implementation, in one namespace. The first of them that a request reaches decides it.
 */
public final class ServletInstrumentation implements Instrumentation {

  private final ServletNamespace namespace;

  public ServletInstrumentation(ServletNamespace namespace) {
    this.namespace = namespace;
  }

  @Override
  public String name() {
    return "servlet (" + namespace.packageName() + ")";
  }

  @Override
  public String markerClass() {
    return namespace.type("Servlet");
  }

  @Override
  public AgentBuilder apply(AgentBuilder builder, ClassLoader agentClassLoader) {
    String request = namespace.type("ServletRequest");
    String response = namespace.type("ServletResponse");
    AgentBuilder.Transformer.ForAdvice advice =
        new AgentBuilder.Transformer.ForAdvice()
            .include(agentClassLoader)
            .advice(
                isPublic()
                    .and(not(isAbstract()))
                    .and(named("service").and(takesArguments(2))
                        .or(named("doFilter").and(takesArguments(3))))
                    .and(takesArgument(0, named(request)))
                    .and(takesArgument(1, named(response))),
                namespace.adviceClassName());
    return builder
        .type(
            not(isInterface())
                .and(
                    hasSuperType(named(namespace.type("Servlet")))
                        .or(hasSuperType(named(namespace.type("Filter"))))),
            new ClassLoaderCanSee(markerClass()))
        .transform(advice);
  }
}
