package io.tollgate.rules;

import io.tollgate.config.CountedState;
import io.tollgate.config.RuleConfig;
import io.tollgate.limiters.LimitSpec;

/**
 * The two fingerprints a reload compares for one budget ({@link CountedState.OfFile#ofBudget},
 * {@link CountedState.OfFile#carriedOverBy}), for the rules of a short file made when a reload
 * first compares them rather than when the budget is built ({@link #whenCompared}): the rules a
 * process starts with are built once, and most are never reloaded, while making them cost the
 * start-up thread ~10% of its CPU on Spring Boot 3 (the table of {@link CountedState}, made at the
 * first fingerprint). Each is made from the same parsed rule and file as it would have been at the
 * build (both are values, never changed), so a reload compares the same texts.
 *
 * <p>That keeps each rule's parsed form (~1 KB) for as long as the rule: a long file's budgets get
 * theirs at the build ({@link #now}), whose cost is then a small part of it.
 *
 * <p>Each text is made once and kept: a reload reads the previous rules' and the new rules'. A
 * race makes the same text twice (a {@code String}, safely published).
 */
final class BudgetFingerprints {
  /** The file and the rule the texts are made of; null when they were made at the build. */
  private final CountedState.OfFile ofFile;
  private final RuleConfig rule;
  private final String budgetId;
  private final LimitSpec limit;
  /** Whether this budget carries counts over a change of parameters (not the rule above them). */
  private final boolean carries;
  private String ofBudget;
  private String carriedOverBy;

  private BudgetFingerprints(
      CountedState.OfFile ofFile, RuleConfig rule, String budgetId, LimitSpec limit,
      boolean carries, String ofBudget, String carriedOverBy) {
    this.ofFile = ofFile;
    this.rule = rule;
    this.budgetId = budgetId;
    this.limit = limit;
    this.carries = carries;
    this.ofBudget = ofBudget;
    this.carriedOverBy = carriedOverBy;
  }

  /** The budget's fingerprints, made when a reload first compares them. */
  static BudgetFingerprints whenCompared(
      CountedState.OfFile ofFile, RuleConfig rule, String budgetId, LimitSpec limit) {
    return new BudgetFingerprints(ofFile, rule, budgetId, limit, true, null, null);
  }

  /** The budget's fingerprints, made now: nothing of the parsed rule is kept. */
  static BudgetFingerprints now(
      CountedState.OfFile ofFile, RuleConfig rule, String budgetId, LimitSpec limit) {
    return new BudgetFingerprints(null, null, budgetId, null, true,
        ofFile.ofBudget(rule, budgetId, limit), ofFile.carriedOverBy(rule, budgetId));
  }

  /** The same budget's fingerprint, carrying nothing: the rule of the file standing for it. */
  BudgetFingerprints carryingNothing() {
    return new BudgetFingerprints(ofFile, rule, budgetId, limit, false, ofBudget, null);
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
