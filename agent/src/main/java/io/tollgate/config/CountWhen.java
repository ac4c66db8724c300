package io.tollgate.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * A rule's {@code count-when}: the response statuses that count against the rule. A request is
 * charged when it is decided, as always; when it ends with a status that is not listed here, the
 * charge is given back.
 *
 * <p>Each item is a status ({@code 401}), a class of statuses ({@code 4xx}, {@code 5xx}: any
 * {@code Nxx} from {@code 1xx} to {@code 5xx}), or {@code failure}, which means {@code 4xx} and
 * {@code 5xx}.
 */
public final class CountWhen {

  /** The word for 4xx and 5xx. */
  public static final String FAILURE = "failure";

  private final List<String> items;
  /** Indexed by status - 100, for 100 to 599. */
  private final boolean[] counted = new boolean[500];

  private CountWhen(List<String> items) {
    this.items = Collections.unmodifiableList(new ArrayList<>(items));
    for (String item : items) {
      if (item.equals(FAILURE)) {
        mark(400, 599);
      } else if (item.endsWith("xx")) {
        int first = (item.charAt(0) - '0') * 100;
        mark(first, first + 99);
      } else {
        int status = Integer.parseInt(item);
        mark(status, status);
      }
    }
  }

  private void mark(int from, int to) {
    for (int s = from; s <= to; s++) {
      counted[s - 100] = true;
    }
  }

  /**
   * The statuses these items name; each item as {@link #item} accepts it.
   *
   * @throws IllegalArgumentException naming the first item that is not one, or when there is none
   */
  public static CountWhen of(List<String> items) {
    if (items.isEmpty()) {
      throw new IllegalArgumentException("count-when names no status");
    }
    List<String> normal = new ArrayList<>();
    for (String item : items) {
      String n = item(item);
      if (n == null) {
        throw new IllegalArgumentException("not a status, a class such as 4xx, or 'failure': " + item);
      }
      normal.add(n);
    }
    return new CountWhen(normal);
  }

  /** {@code count-when: [..]} of these items; see {@link #of(List)}. */
  public static CountWhen of(String... items) {
    List<String> list = new ArrayList<>();
    Collections.addAll(list, items);
    return of(list);
  }

  /**
   * One item as written, in its canonical spelling: a status from 100 to 599 ({@code "401"}), a
   * class from {@code 1xx} to {@code 5xx} (any case), or {@code failure}; null when it is none.
   */
  static String item(String written) {
    String v = written.trim().toLowerCase(Locale.ROOT);
    if (v.equals(FAILURE)) {
      return v;
    }
    if (v.length() == 3 && v.endsWith("xx") && v.charAt(0) >= '1' && v.charAt(0) <= '5') {
      return v;
    }
    if (v.length() == 3
        && Character.isDigit(v.charAt(0)) && Character.isDigit(v.charAt(1))
        && Character.isDigit(v.charAt(2))) {
      int status = Integer.parseInt(v);
      return status >= 100 && status <= 599 ? v : null;
    }
    return null;
  }

  /**
   * Whether a request that ended with {@code status} stays charged. A status Tollgate could not
   * read (0 or less), or one outside 100 to 599, stays charged too: only a response known not to
   * count is given back.
   */
  public boolean counts(int status) {
    return status < 100 || status > 599 || counted[status - 100];
  }

  /** The items, canonical, in file order. */
  public List<String> items() {
    return items;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CountWhen && ((CountWhen) o).items.equals(items);
  }

  @Override
  public int hashCode() {
    return items.hashCode();
  }

  /** As written in a rules file: {@code [401, 403]}. */
  @Override
  public String toString() {
    return "[" + String.join(", ", items) + "]";
  }
}
