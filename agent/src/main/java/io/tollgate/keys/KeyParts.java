package io.tollgate.keys;

import java.util.Arrays;
import java.util.List;

/**
 * Joins the parts of a composite rate-limit key ({@code key: [ip, param:username]}) so that no
 * client-chosen part can forge a separator: every part is written as its length in decimal, a
 * {@code ':'}, then the part verbatim; parts are separated by {@code '|'}. A {@code null} part
 * (value absent) is written as {@code '-'}, which differs from an empty part ({@code 0:}).
 *
 * <p>Examples: {@code join("1.2.3.4", "a|b")} is {@code 7:1.2.3.4|3:a|b};
 * {@code join("1.2.3.4|3:a", "b")} is {@code 11:1.2.3.4|3:a|1:b}. The encoding is injective: the
 * list of parts can be read back unambiguously from the left, so two different lists never give
 * the same string, and lists of different lengths never collide either.
 */
public final class KeyParts {

  private KeyParts() {
  }

  /** Joins {@code parts} (each may be null) as described above; no parts give the empty string. */
  public static String join(String... parts) {
    return join(Arrays.asList(parts));
  }

  /** Joins {@code parts} (each may be null) as described above; no parts give the empty string. */
  public static String join(List<String> parts) {
    int size = 0;
    for (String p : parts) {
      size += (p == null ? 1 : p.length() + 8) + 1;
    }
    StringBuilder sb = new StringBuilder(size);
    boolean first = true;
    for (String p : parts) {
      if (!first) {
        sb.append('|');
      }
      first = false;
      if (p == null) {
        sb.append('-');
      } else {
        sb.append(p.length()).append(':').append(p);
      }
    }
    return sb.toString();
  }
}
