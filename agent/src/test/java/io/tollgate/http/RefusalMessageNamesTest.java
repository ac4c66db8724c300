package io.tollgate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Whether a refusal's header names all differ, by any case: when they do, a module that writes
 * them into a response it has just reset does not look for an earlier header of each name first
 * ({@code TomcatResponseHeaders.setAll}); when two are one name, it looks, and the second replaces
 * the first as {@code setHeader} would.
 */
class RefusalMessageNamesTest {

  @ParameterizedTest(name = "{0}: distinct {1}")
  @CsvSource(delimiter = '|', value = {
    "RateLimit-Policy RateLimit Retry-After Cache-Control Tollgate-Rule | true",
    "X-RateLimit-Limit X-RateLimit-Remaining X-RateLimit-Reset Retry-After | true",
    "Retry-After                                                         | true",
    "Retry-After Cache-Control Retry-After                               | false",
    "RateLimit ratelimit                                                 | false",
    "RateLimit RateLimit-Policy RATELIMIT-POLICY                         | false",
  })
  void namesThatDifferByAnyCase(String names, boolean distinct) {
    String[] each = names.trim().split(" +");
    String[] headers = new String[2 * each.length];
    for (int i = 0; i < each.length; i++) {
      headers[2 * i] = each[i];
      headers[2 * i + 1] = "v" + i;
    }
    RefusalMessage message = new RefusalMessage(429, headers, "text/plain", new byte[0]);
    assertEquals(distinct, message.hasDistinctNames());
  }
}
