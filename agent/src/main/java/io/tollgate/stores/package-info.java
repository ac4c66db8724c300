/**
 * Where each key's state lives: {@link io.tollgate.stores.LimiterStore}, in this process ({@link
 * io.tollgate.stores.LocalLimiterStore}, a bounded Caffeine cache per rule) or on Redis (in {@code
 * stores.redis}); and {@link io.tollgate.stores.BudgetGroup}, a rule's several limits decided
 * together.
 *
 * <p>May use: {@code limiters} (the algorithms whose state is kept), {@code config} (the rule's
 * {@code on-failure}), {@code logging}.
 */
package io.tollgate.stores;
