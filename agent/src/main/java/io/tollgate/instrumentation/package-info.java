/**
 * The weaving core: {@link io.tollgate.instrumentation.EntryPointWeaving} and one {@code ...Weaver}
 * per intercepted type rewrite the entry points' method bodies over Byte Buddy's ASM, so that they
 * call the bootstrap bridge; {@link io.tollgate.instrumentation.FrameworkModule} is what each
 * framework's folder below provides, and {@link io.tollgate.instrumentation.DirectCalls} writes the
 * small classes that call an application's servlet or JAX-RS API directly.
 *
 * <p>May use: {@code bootstrap}, {@code diagnostics}, {@code engine}, {@code logging}. A framework
 * module (a sub-package) may also use {@code http}, {@code outbound}, {@code rules}, this package
 * and, where it is built on another, that module (Spring MVC, RESTEasy, CXF and the containers'
 * entries on {@code servlet}).
 */
package io.tollgate.instrumentation;
