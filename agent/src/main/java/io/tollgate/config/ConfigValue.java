package io.tollgate.config;

import java.util.Arrays;

/**
 * A part of a rule's configuration (or a whole outbound rule) compared by value: its equality and
 * hash are derived from {@link #fields()}, the one place that lists what the part holds.
 *
 * <p>Whether a reloaded rule is the same as before is these parts compared one by one, so a field
 * left out of {@link #fields()} would let a changed rule pass for unchanged; {@code
 * RuleConfigEqualityTest} fails, naming the field, when one is.
 */
abstract class ConfigValue {

  /** Every field of this part, in the order they are declared. */
  abstract Object[] fields();

  @Override
  public final boolean equals(Object o) {
    return o == this
        || (o != null
            && o.getClass() == getClass()
            && Arrays.equals(fields(), ((ConfigValue) o).fields()));
  }

  @Override
  public final int hashCode() {
    return 31 * getClass().getName().hashCode() + Arrays.hashCode(fields());
  }
}
