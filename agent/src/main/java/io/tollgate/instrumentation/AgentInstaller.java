package io.tollgate.instrumentation;

import static net.bytebuddy.matcher.ElementMatchers.isSynthetic;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;

import io.tollgate.diagnostics.AgentLog;
import io.tollgate.diagnostics.EntryPoints;
import io.tollgate.instrumentation.jaxrs.GrizzlyContainerInstrumentation;
import io.tollgate.instrumentation.jaxrs.JerseyInstrumentation;
import io.tollgate.instrumentation.servlet.ServletInstrumentation;
import io.tollgate.instrumentation.servlet.ServletNamespace;
import io.tollgate.instrumentation.spring.SpringMvcInstrumentation;
import java.lang.instrument.ClassFileTransformer;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.utility.JavaModule;

/**
 * Installs every instrumentation with one Byte Buddy {@link AgentBuilder}.
 *
 * <p>Retransformation without class-format changes, so that {@code attach} can instrument classes
 * the running application loaded long ago. One ignore matcher (a second {@code ignore} call would
 * replace the first, not add to it), which keeps the JDK, Byte Buddy and Tollgate itself out.
 */
public final class AgentInstaller {

  private static final List<Instrumentation> INSTRUMENTATIONS =
      Arrays.asList(
          new ServletInstrumentation(ServletNamespace.JAVAX),
          new ServletInstrumentation(ServletNamespace.JAKARTA),
          new SpringMvcInstrumentation(),
          new JerseyInstrumentation(),
          new GrizzlyContainerInstrumentation());

  private AgentInstaller() {}

  /**
   * Attached to a running JVM: installs the instrumentation and retransforms, in small batches so
   * that no single pause is long, the classes the application loaded before.
   */
  public static void installOnRunningJvm(
      java.lang.instrument.Instrumentation inst, ClassLoader agentClassLoader) {
    AgentBuilder builder =
        configure()
            .with(AgentBuilder.RedefinitionStrategy.BatchAllocator.ForFixedSize.ofSize(100));
    for (Instrumentation instrumentation : INSTRUMENTATIONS) {
      builder = instrumentation.apply(builder, agentClassLoader);
    }
    builder.installOn(inst);
  }

  /**
   * At JVM start: the transformer alone, not registered, for {@code StartupTransformer} to call.
   * No class it could change was loaded before (they waited for it), so there is nothing to
   * retransform.
   */
  public static ClassFileTransformer transformerForJvmStart(ClassLoader agentClassLoader) {
    AgentBuilder builder = configure();
    for (Instrumentation instrumentation : INSTRUMENTATIONS) {
      builder = instrumentation.apply(builder, agentClassLoader);
    }
    return builder.makeRaw();
  }

  private static AgentBuilder.RedefinitionListenable.WithoutBatchStrategy configure() {
    return AdviceOnlyAgentBuilder.create(new ByteBuddy().with(TypeValidation.DISABLED))
            .disableClassFormatChanges()
            .with(AgentBuilder.TypeStrategy.Default.DECORATE)
            .with(new TypeDescriptionCache())
            .with(new TransformLogger())
            .ignore(
                nameStartsWith("java.")
                    .or(nameStartsWith("jdk."))
                    .or(nameStartsWith("sun."))
                    .or(nameStartsWith("com.sun."))
                    .or(nameStartsWith("net.bytebuddy."))
                    .or(nameStartsWith("io.tollgate.bootstrap."))
                    .or(nameStartsWith("io.tollgate.shaded."))
                    // Libraries that never hold a servlet, filter, handler adapter or resource
                    // invoker: not worth a look at their type hierarchies while the app starts.
                    .or(nameStartsWith("com.fasterxml.jackson."))
                    .or(nameStartsWith("ch.qos.logback."))
                    .or(nameStartsWith("org.slf4j."))
                    .or(nameStartsWith("org.apache.logging."))
                    .or(nameStartsWith("org.yaml.snakeyaml."))
                    .or(nameStartsWith("kotlin."))
                    .or(nameStartsWith("scala."))
                    .or(nameStartsWith("groovy."))
                    .or(nameStartsWith("org.aspectj."))
                    .or(nameStartsWith("io.micrometer."))
                    .or(nameStartsWith("reactor."))
                    .or(nameStartsWith("io.netty."))
                    .or(nameStartsWith("com.google.common."))
                    .or(nameStartsWith("org.springframework.boot.autoconfigure."))
                    .or(nameStartsWith("org.springframework.core."))
                    .or(nameStartsWith("org.springframework.beans."))
                    .or(nameStartsWith("org.springframework.context."))
                    .or(nameStartsWith("org.springframework.aop."))
                    .or(nameStartsWith("org.springframework.util."))
                    .or(nameStartsWith("org.springframework.cglib."))
                    .or(nameStartsWith("org.springframework.asm."))
                    .or(isSynthetic()))
            .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION);
  }

  /** Logs each instrumented class once, and every failure to instrument one. */
  private static final class TransformLogger extends AgentBuilder.Listener.Adapter {

    private final Set<String> logged = ConcurrentHashMap.newKeySet();

    @Override
    public void onTransformation(
        TypeDescription type,
        ClassLoader classLoader,
        JavaModule module,
        boolean loaded,
        DynamicType dynamicType) {
      if (logged.add(type.getName() + "@" + System.identityHashCode(classLoader))) {
        AgentLog.info("instrumented " + type.getName() + (loaded ? " (already loaded)" : ""));
        EntryPoints.instrumented(type);
      }
    }

    @Override
    public void onError(
        String typeName,
        ClassLoader classLoader,
        JavaModule module,
        boolean loaded,
        Throwable throwable) {
      AgentLog.warn("could not instrument " + typeName + "; requests through it pass unlimited: "
          + throwable);
    }
  }
}
