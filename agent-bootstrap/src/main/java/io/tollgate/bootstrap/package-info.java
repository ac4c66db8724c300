/**
 * The agent's outer tiers: the premain (system class loader) and the bridge that woven code
 * calls (bootstrap class loader). JDK types only.
 *
 * <p>May use: nothing of the agent's; the bottom of the layers.
 */
package io.tollgate.bootstrap;
