package io.tollgate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The refund decision: a request that ended with a status stays charged when {@code count-when}
 * lists it (or its class), and is given its charge back otherwise. A status Tollgate could not read
 * is never given back.
 */
class CountWhenTest {

  static Arguments when(String countWhen, int status, String outcome) {
    return Arguments.of(countWhen, status, outcome);
  }

  static Stream<Arguments> table() {
    return Stream.of(
        // the login policy
        when("401, 403", 401, "counted"),
        when("401, 403", 403, "counted"),
        when("401, 403", 200, "refunded"),
        when("401, 403", 302, "refunded"),
        when("401, 403", 404, "refunded"),
        when("401, 403", 429, "refunded"),
        when("401, 403", 500, "refunded"),
        // classes
        when("4xx", 400, "counted"),
        when("4xx", 499, "counted"),
        when("4xx", 500, "refunded"),
        when("4xx", 399, "refunded"),
        when("5xx", 500, "counted"),
        when("5xx", 503, "counted"),
        when("5xx", 404, "refunded"),
        when("2xx", 201, "counted"),
        when("2xx", 401, "refunded"),
        // failure: 4xx and 5xx
        when("failure", 400, "counted"),
        when("failure", 401, "counted"),
        when("failure", 500, "counted"),
        when("failure", 599, "counted"),
        when("failure", 200, "refunded"),
        when("failure", 204, "refunded"),
        when("failure", 304, "refunded"),
        when("failure", 399, "refunded"),
        // mixed
        when("failure, 302", 302, "counted"),
        when("5xx, 429", 429, "counted"),
        when("5xx, 429", 430, "refunded"),
        // a status not known (the exchange could not tell), or not a status: the charge stays
        when("401", -1, "counted"),
        when("401", 0, "counted"),
        when("401", 99, "counted"),
        when("401", 600, "counted"));
  }

  @ParameterizedTest(name = "count-when [{0}], status {1}: {2}")
  @MethodSource("table")
  void decides(String countWhen, int status, String outcome) {
    CountWhen c = CountWhen.of(countWhen.split(", "));
    assertEquals(outcome, c.counts(status) ? "counted" : "refunded");
  }
}
