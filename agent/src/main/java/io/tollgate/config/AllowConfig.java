package io.tollgate.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * An allowlist ({@code allow}): requests from these client networks, or with these key values, are
 * never limited by the rule. Top-level {@code allow.cidrs} apply to every rule.
 */
public final class AllowConfig {
  public static final AllowConfig NONE =
      new AllowConfig(Collections.<String>emptyList(), Collections.<String>emptyList());

  private final List<String> cidrs;
  private final List<String> keys;

  public AllowConfig(List<String> cidrs, List<String> keys) {
    this.cidrs = Collections.unmodifiableList(new ArrayList<>(cidrs));
    this.keys = Collections.unmodifiableList(new ArrayList<>(keys));
  }

  /** Client networks, as written: {@code 10.0.0.0/8}, {@code 2001:db8::/32}, or one address. */
  public List<String> cidrs() {
    return cidrs;
  }

  /** Key values as the client sends them (an API key, a user name), before any hashing. */
  public List<String> keys() {
    return keys;
  }

  public boolean isEmpty() {
    return cidrs.isEmpty() && keys.isEmpty();
  }

  /** Both allowlists together, without repeats. */
  public AllowConfig plus(AllowConfig other) {
    if (other.isEmpty()) {
      return this;
    }
    LinkedHashSet<String> c = new LinkedHashSet<>(cidrs);
    c.addAll(other.cidrs);
    LinkedHashSet<String> k = new LinkedHashSet<>(keys);
    k.addAll(other.keys);
    return new AllowConfig(new ArrayList<>(c), new ArrayList<>(k));
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof AllowConfig)) {
      return false;
    }
    AllowConfig a = (AllowConfig) o;
    return cidrs.equals(a.cidrs) && keys.equals(a.keys);
  }

  @Override
  public int hashCode() {
    return Objects.hash(cidrs, keys);
  }

  @Override
  public String toString() {
    return "{cidrs=" + cidrs + ", keys=" + keys.size() + "}";
  }
}
