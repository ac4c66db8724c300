/**
 * {@code java -jar tollgate-agent.jar COMMAND}: {@code validate}, {@code attach}, {@code replay}
 * and {@code version} ({@link io.tollgate.cli.Cli}).
 *
 * <p>May use: every package.
 */
package io.tollgate.cli;
