/**
 * The agent's start in its own class loader: {@link io.tollgate.agent.AgentMain} (called by the
 * bootstrap's premain or {@code attach}) installs the weaving and starts the engine; {@link
 * io.tollgate.agent.FrameworkModules} lists the framework modules.
 *
 * <p>May use: every package.
 */
package io.tollgate.agent;
