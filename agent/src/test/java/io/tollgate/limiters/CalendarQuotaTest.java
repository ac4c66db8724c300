package io.tollgate.limiters;

import static io.tollgate.limiters.Step.MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CalendarQuotaTest {

  private static final ZoneId PARIS = ZoneId.of("Europe/Paris");
  private static final long HOUR = TimeUnit.HOURS.toNanos(1);

  private static long at(String localDateTime, ZoneId zone) {
    ZonedDateTime t = LocalDateTime.parse(localDateTime).atZone(zone);
    return t.toEpochSecond() * 1_000_000_000L + t.getNano();
  }

  static Stream<Arguments> days() {
    return Stream.of(
        // time (local, Paris) -> nanoseconds until the next local midnight
        Arguments.of("ordinary day, from midnight", "2026-03-27T00:00", 24 * HOUR),
        Arguments.of("spring forward: 23 hours", "2026-03-29T00:00", 23 * HOUR),
        Arguments.of("spring forward, after the change", "2026-03-29T12:00", 12 * HOUR),
        Arguments.of("fall back: 25 hours", "2026-10-25T00:00", 25 * HOUR),
        Arguments.of("fall back, before the change", "2026-10-25T01:30", 23 * HOUR + HOUR / 2));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("days")
  void aDayRunsFromLocalMidnightToLocalMidnight(String name, String local, long untilMidnight) {
    CalendarQuota quota = new CalendarQuota(1000, CalendarQuota.Unit.DAY, PARIS);
    Verdict verdict = new Verdict();
    quota.decide(quota.newState(), at(local, PARIS), 1, verdict);
    assertTrue(verdict.allowed);
    assertEquals(999, verdict.remaining);
    assertEquals(untilMidnight, verdict.resetNanos);
  }

  @Test
  void thousandPerParisDayResetsAtLocalMidnightOnADstDay() {
    CalendarQuota quota = new CalendarQuota(1000, CalendarQuota.Unit.DAY, PARIS);
    CalendarQuota.State state = quota.newState();
    Verdict verdict = new Verdict();
    long beforeMidnight = at("2026-03-28T23:59:59.999", PARIS);
    quota.decide(state, beforeMidnight, 1000, verdict);
    assertTrue(verdict.allowed);
    quota.decide(state, beforeMidnight, 1, verdict);
    assertFalse(verdict.allowed);
    assertEquals(MS, verdict.retryAfterNanos);
    // a new day: the whole quota, which lasts the 23 hours of March 29th
    quota.decide(state, beforeMidnight + MS, 1000, verdict);
    assertTrue(verdict.allowed);
    assertEquals(0, verdict.remaining);
    quota.decide(state, at("2026-03-29T03:00", PARIS), 1, verdict);
    assertFalse(verdict.allowed);
    assertEquals(21 * HOUR, verdict.retryAfterNanos);
    quota.decide(state, at("2026-03-30T00:00", PARIS), 1, verdict);
    assertTrue(verdict.allowed);
    assertEquals(999, verdict.remaining);
  }

  @Test
  void monthsWeeksAndYearsFollowTheCalendar() {
    Verdict verdict = new Verdict();
    CalendarQuota month = new CalendarQuota(10, CalendarQuota.Unit.MONTH, PARIS);
    month.decide(month.newState(), at("2026-02-15T12:00", PARIS), 1, verdict);
    assertEquals(at("2026-03-01T00:00", PARIS) - at("2026-02-15T12:00", PARIS), verdict.resetNanos);
    CalendarQuota week = new CalendarQuota(10, CalendarQuota.Unit.WEEK, PARIS);
    // 2026-03-04 is a Wednesday: the week ends on Monday the 9th
    week.decide(week.newState(), at("2026-03-04T00:00", PARIS), 1, verdict);
    assertEquals(at("2026-03-09T00:00", PARIS) - at("2026-03-04T00:00", PARIS), verdict.resetNanos);
    CalendarQuota year = new CalendarQuota(10, CalendarQuota.Unit.YEAR, PARIS);
    year.decide(year.newState(), at("2026-12-31T23:00", PARIS), 11, verdict);
    assertFalse(verdict.allowed);
    assertEquals(HOUR, verdict.resetNanos);
    assertEquals(365 * 24 * HOUR, verdict.retryAfterNanos);
  }

  @Test
  void aDayWhoseMidnightDoesNotExistStartsAtItsFirstLocalTime() {
    // Sao Paulo, 2018-11-04: clocks went from 00:00 to 01:00
    ZoneId saoPaulo = ZoneId.of("America/Sao_Paulo");
    CalendarQuota quota = new CalendarQuota(1, CalendarQuota.Unit.DAY, saoPaulo);
    CalendarQuota.State state = quota.newState();
    Verdict verdict = new Verdict();
    long dayStart = at("2018-11-04T01:00", saoPaulo);
    quota.decide(state, dayStart - 1, 1, verdict);
    assertTrue(verdict.allowed);
    assertEquals(1, verdict.resetNanos);
    quota.decide(state, dayStart, 1, verdict);
    assertTrue(verdict.allowed);
    assertEquals(23 * HOUR, verdict.resetNanos);
  }

  @Test
  void idleLongerThanAnyWindowAndNominalPolicy() {
    CalendarQuota day = new CalendarQuota(1000, CalendarQuota.Unit.DAY, PARIS);
    assertEquals(72 * HOUR, day.idleNanosUntilFresh());
    assertEquals(1000, day.policy().quota());
    assertEquals(86_400, day.policy().windowSeconds());
    CalendarQuota month = new CalendarQuota(1000, CalendarQuota.Unit.MONTH, PARIS);
    assertEquals(32 * 24 * HOUR, month.idleNanosUntilFresh());
    assertEquals(30 * 86_400, month.policy().windowSeconds());
    assertThrows(
        IllegalArgumentException.class, () -> new CalendarQuota(0, CalendarQuota.Unit.DAY, PARIS));
  }
}
