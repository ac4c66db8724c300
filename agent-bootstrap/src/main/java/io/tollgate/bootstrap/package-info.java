/**
 * The agent's outer tiers: the premain (system class loader) and the bridge that woven code
 * calls (bootstrap class loader). JDK types only.
 */
package io.tollgate.bootstrap;
