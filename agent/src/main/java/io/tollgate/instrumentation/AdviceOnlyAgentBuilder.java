package io.tollgate.instrumentation;

import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.dynamic.Nexus;

/**
 * Creates the {@link AgentBuilder} without Byte Buddy's self-injection probe.
 *
 * <p>{@code new AgentBuilder.Default()} creates {@code InitializationStrategy.SelfInjection.Split},
 * whose {@code NexusAccessor} finds out, when it is first initialized, whether classes can be
 * injected by reflection or {@code Unsafe}: it generates and loads a class with Byte Buddy to see.
 * That probe was about a third of the agent's {@code premain} (some 400 ms on a 2-core machine,
 * and hundreds of Byte Buddy classes loaded cold), and its answer is never used: Tollgate only
 * inlines advice, which needs no initializer, and {@code disableClassFormatChanges()} sets the
 * {@code NoOp} initialization strategy anyway. Byte Buddy skips the probe when its
 * {@code nexus.disabled} property is set; it reads the property once, so it is set only while the
 * builder is created, and only in the agent's shaded copy (whose property name is relocated with
 * the package): an application's own Byte Buddy never sees it.
 */
final class AdviceOnlyAgentBuilder {

  private AdviceOnlyAgentBuilder() {}

  static AgentBuilder create(ByteBuddy byteBuddy) {
    String property = nexusDisabledProperty();
    if (property == null) {
      return new AgentBuilder.Default(byteBuddy);
    }
    String earlier = System.getProperty(property);
    System.setProperty(property, "true");
    try {
      return new AgentBuilder.Default(byteBuddy);
    } finally {
      if (earlier == null) {
        System.clearProperty(property);
      } else {
        System.setProperty(property, earlier);
      }
    }
  }

  /**
   * The shaded copy's {@code net.bytebuddy.nexus.disabled}, or null when Byte Buddy is not shaded
   * (unit tests), where the property would be the application's as well. The shade plugin
   * relocates this constant with the package, as it does {@code Nexus}'s own.
   */
  static String nexusDisabledProperty() {
    String property = Nexus.PROPERTY;
    return property.startsWith("io.tollgate.shaded.") ? property : null;
  }
}
