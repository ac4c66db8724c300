package io.tollgate.rules;

import io.tollgate.config.CountedState;
import io.tollgate.config.RuleConfig;

/**
 * What defines a rule's penalty boxes ({@link CountedState.OfFile#ofPenaltyBoxes}), which a reload
 * compares to keep the boxed keys; for the rules of a short file made when a reload first compares
 * it, as {@link BudgetFingerprints} are: made at the build, the first {@code penalty:} rule of a
 * file made {@link CountedState}'s table on the start-up thread (~10 ms, 33 spun classes), for a
 * comparison most processes never make. Made from the same parsed rule and file as at the build
 * (values, never changed), so a reload compares the same text.
 *
 * <p>The text is made once and kept, and the parsed rule let go then. Unlike {@link
 * BudgetFingerprints}, which keeps its rule and may make a text twice in a race, {@link #text} is
 * synchronized: a thread that found the text missing must not read the fields another has just
 * cleared. Only a reload calls it.
 */
final class PenaltyFingerprint {
  /** The file and the rule the text is made of; null once it is made. */
  private CountedState.OfFile ofFile;
  private RuleConfig rule;
  private String text;

  private PenaltyFingerprint(CountedState.OfFile ofFile, RuleConfig rule, String text) {
    this.ofFile = ofFile;
    this.rule = rule;
    this.text = text;
  }

  /** The rule's penalty fingerprint, made when a reload first compares it. */
  static PenaltyFingerprint whenCompared(CountedState.OfFile ofFile, RuleConfig rule) {
    return new PenaltyFingerprint(ofFile, rule, null);
  }

  /** The rule's penalty fingerprint, made now: nothing of the parsed rule is kept. */
  static PenaltyFingerprint now(CountedState.OfFile ofFile, RuleConfig rule) {
    return new PenaltyFingerprint(null, null, ofFile.ofPenaltyBoxes(rule));
  }

  /** A fingerprint given as it is (a tracker built outside a rules file, as in tests). */
  static PenaltyFingerprint of(String text) {
    return new PenaltyFingerprint(null, null, text);
  }

  /** The text; made at the first call for a fingerprint {@link #whenCompared}. */
  synchronized String text() {
    if (text == null) {
      text = ofFile.ofPenaltyBoxes(rule);
      ofFile = null;
      rule = null;
    }
    return text;
  }
}
