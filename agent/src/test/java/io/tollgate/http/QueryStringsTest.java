package io.tollgate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A {@code query:} key reads the query string as the servlet container decodes it, and a {@code
 * form:} key finds the body's values after as many of the query string's as there are.
 */
class QueryStringsTest {

  @ParameterizedTest(name = "{0} -> user = {1}, {2} values")
  @CsvSource(
      delimiter = '|',
      nullValues = "(null)",
      value = {
        // query string                    | first value of user | values of user
        "user=alice                        | alice               | 1",
        "x=1&user=a+b&user=c               | a b                 | 2",
        "user=%C3%A9%2F                    | é/                  | 1",
        "user=j%C3%BCrgen                  | jürgen              | 1",
        "user&x=1                          | ''                  | 1",
        "user=%zz                          | %zz                 | 1",
        "us%65r=encoded+name               | encoded name        | 1",
        "users=1&xuser=2&=3                | (null)              | 0",
        "(null)                            | (null)              | 0",
        "''                                | (null)              | 0",
      })
  void theQueryStringIsDecodedAsTheContainerDoes(String query, String first, int count) {
    assertEquals(first, QueryStrings.first(query, "user"));
    assertEquals(count, QueryStrings.count(query, "user"));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      nullValues = "(null)",
      value = {
        "application/x-www-form-urlencoded                 | true",
        "Application/X-WWW-Form-Urlencoded; charset=UTF-8  | true",
        "multipart/form-data; boundary=x                   | true",
        "application/json                                  | false",
        "text/plain                                        | false",
        "(null)                                            | false",
      })
  void onlyFormsCarryParametersInTheirBody(String contentType, boolean form) {
    assertEquals(form, QueryStrings.isFormBody(contentType));
  }
}
