/**
 * The decision and the request's lifecycle, with no framework: {@link
 * io.tollgate.engine.TollgateGate} takes a request as an {@code HttpExchange} from a framework
 * module, decides the rules that apply at that entry point ({@link
 * io.tollgate.engine.RequestDecider}), answers with the outcome for the module to apply (let
 * through, or the refusal to write), and settles at the request's end what the decision left
 * (costs, {@code count-when}, permits). {@link io.tollgate.engine.RulesHolder} and {@link
 * io.tollgate.engine.RulesFileWatcher} load the rules and swap them on a reload.
 *
 * <p>May use: {@code bootstrap}, {@code config}, {@code diagnostics}, {@code http}, {@code keys},
 * {@code limiters}, {@code logging}, {@code outbound}, {@code rules}, {@code stores}.
 */
package io.tollgate.engine;
