/**
 * The rules file compiled for the request path: {@link io.tollgate.rules.RuleSetFactory} turns the
 * parsed {@code RulesConfig} into a {@link io.tollgate.rules.RuleSet} of {@link
 * io.tollgate.rules.Rule}s, each with its matcher, its key resolver, its algorithms on their stores
 * (chosen by {@link io.tollgate.rules.StoreProvider}), its penalty box and its refusal body; state
 * that an unchanged rule had survives a reload.
 *
 * <p>May use: {@code config}, {@code diagnostics}, {@code http}, {@code keys}, {@code limiters},
 * {@code logging}, {@code stores}.
 */
package io.tollgate.rules;
