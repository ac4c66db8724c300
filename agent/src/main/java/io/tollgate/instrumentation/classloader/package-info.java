/**
 * Makes the bridge ({@code io.tollgate.bootstrap}, on the bootstrap class path) visible from class
 * loaders that do not ask the bootstrap loader for it, and keeps the woven code away from those
 * that still cannot see it.
 *
 * <p>Most class loaders ask their parent first, and so the bootstrap loader, for every class; the
 * bridge is found there. Module systems do not: JBoss Modules (WildFly, JBoss EAP) shows a module
 * only {@code java.*}, its dependencies and the packages in {@code jboss.modules.system.pkgs}; OSGi
 * frameworks (Felix in GlassFish and Payara, Equinox in Open Liberty) only {@code java.*}, the
 * bundle's imports and {@code org.osgi.framework.bootdelegation}. The servlet API is such a module
 * or bundle, and its woven {@code HttpServlet.service} would throw {@code NoClassDefFoundError} on
 * every request. So, as the OpenTelemetry agent does, every class loader's {@code loadClass} is
 * woven to answer the bridge's package from the bootstrap loader ({@link LoadClassWeaver}), at
 * start and, after {@code attach}, by retransforming the loader classes already loaded
 * ({@link LoadedClassLoaders}). {@link io.tollgate.instrumentation.BridgeVisibility} checks,
 * before an entry point is woven, that its class loader resolves the bridge to the agent's own;
 * where it does not, the class is left as it is and one error says which loader and how to fix
 * it.
 *
 * <p>Part of the {@code instrumentation} core: may use {@code bootstrap}, {@code diagnostics},
 * {@code engine}, {@code logging}.
 */
package io.tollgate.instrumentation.classloader;
