package io.tollgate.rules;

import io.tollgate.config.CountedState;
import io.tollgate.config.RuleConfig;
import io.tollgate.limiters.LimitSpec;

/**
 * The two fingerprints a reload compares for one budget ({@link CountedState.OfFile#ofBudget},
 * {@link CountedState.OfFile#carriedOverBy}), made when a reload first compares them rather than
 * when the budget is built: the rules a process starts with are built once, and most are never
 * reloaded, while making them cost the start-up thread ~10% of its CPU on Spring Boot 3 (the
 * table of {@link CountedState}). Each is made from the same parsed rule and file as it would have
 * been at the build (both are values, never changed), so a reload compares the same texts.
 *
 * <p>Each text is made once and kept: a reload reads the previous rules' and the new rules'. A
 * race makes the same text twice (a {@code String}, safely published).
 */
final class BudgetFingerprints {
  private final CountedState.OfFile ofFile;
  private final RuleConfig rule;
  private final String budgetId;
  private final LimitSpec limit;
  /** Whether this budget carries counts over a change of parameters (not the rule above them). */
  private final boolean carries;
  private String ofBudget;
  private String carriedOverBy;

  BudgetFingerprints(
      CountedState.OfFile ofFile, RuleConfig rule, String budgetId, LimitSpec limit) {
    this(ofFile, rule, budgetId, limit, true);
  }

  private BudgetFingerprints(
      CountedState.OfFile ofFile, RuleConfig rule, String budgetId, LimitSpec limit,
      boolean carries) {
    this.ofFile = ofFile;
    this.rule = rule;
    this.budgetId = budgetId;
    this.limit = limit;
    this.carries = carries;
  }

  /** The same budget's fingerprint, carrying nothing: the rule of the file standing for it. */
  BudgetFingerprints carryingNothing() {
    return new BudgetFingerprints(ofFile, rule, budgetId, limit, false);
  }

  /** Everything that defines the budget's counting ({@link CountedState.OfFile#ofBudget}). */
  String ofBudget() {
    String text = ofBudget;
    if (text == null) {
      text = ofFile.ofBudget(rule, budgetId, limit);
      ofBudget = text;
    }
    return text;
  }

  /**
   * What the budget's counts need to be carried over ({@link CountedState.OfFile#carriedOverBy}),
   * or null when it carries nothing.
   */
  String carriedOverBy() {
    if (!carries) {
      return null;
    }
    String text = carriedOverBy;
    if (text == null) {
      text = ofFile.carriedOverBy(rule, budgetId);
      carriedOverBy = text;
    }
    return text;
  }
}
