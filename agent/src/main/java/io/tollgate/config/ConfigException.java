package io.tollgate.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A rules file that cannot be used; carries every problem found, in file order. */
public final class ConfigException extends Exception {
  private static final long serialVersionUID = 1L;

  private final List<ConfigProblem> problems;

  public ConfigException(List<ConfigProblem> problems) {
    super(describe(problems));
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("a ConfigException needs at least one problem");
    }
    this.problems = Collections.unmodifiableList(new ArrayList<>(problems));
  }

  /** Every problem found, sorted by line and column. */
  public List<ConfigProblem> problems() {
    return problems;
  }

  private static String describe(List<ConfigProblem> problems) {
    StringBuilder sb = new StringBuilder();
    for (ConfigProblem p : problems) {
      if (sb.length() > 0) {
        sb.append('\n');
      }
      sb.append(p);
    }
    return sb.toString();
  }
}
