package io.tollgate.config;

import io.tollgate.keys.PathNormalizer;

/**
 * The form a {@code match.path} or {@code skip.path} glob must have to match anything: rules are
 * matched against the {@link PathNormalizer normalised} request path, which never has a trailing
 * {@code /}, an empty, {@code .} or {@code ..} segment, a {@code ;parameter}, an escape of an
 * unreserved character or lower-case hex in an escape. A glob with one of those ({@code /login/},
 * {@code /a//b}, {@code /a/./b}, {@code /x;v=1}, {@code /%6Cogin}) is accepted by the glob syntax
 * but can never match, and its rule silently limits nothing; {@code validate} refuses it, naming
 * this form.
 */
final class GlobNormalForm {

  /** Stands for the glob's {@code ?} wildcard, which the normaliser would take for a query. */
  private static final char ONE_CHARACTER = '\ue000';

  private GlobNormalForm() {
  }

  /** {@code glob} as a normalised path would spell it: {@code glob} itself when it can match. */
  static String of(String glob) {
    if (glob.indexOf(ONE_CHARACTER) >= 0) {
      return glob; // cannot stand in for '?' here; such a glob is matched as written
    }
    String normalised =
        PathNormalizer.normalize(glob.replace('?', ONE_CHARACTER)).replace(ONE_CHARACTER, '?');
    return normalised;
  }

  /** Whether {@code glob} can match a normalised path. */
  static boolean canMatch(String glob) {
    return of(glob).equals(glob);
  }
}
