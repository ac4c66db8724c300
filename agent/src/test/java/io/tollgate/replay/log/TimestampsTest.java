package io.tollgate.replay.log;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TimestampsTest {

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource(delimiter = '|', value = {
    "10/Oct/2000:13:55:36 -0700       | 2000-10-10T20:55:36Z",
    "[10/Oct/2000:13:55:36 -0700]     | 2000-10-10T20:55:36Z",
    "01/Jan/1970:00:00:00 +0000       | 1970-01-01T00:00:00Z",
    "29/Feb/2024:23:59:59 +0530       | 2024-02-29T18:29:59Z",
    "31/Dec/2099:23:59:60 -0000       | 2100-01-01T00:00:00Z",
    "05/Mar/2024:08:00:00.5 +01:00    | 2024-03-05T07:00:00.500Z",
    "05/Mar/2024:08:00:00             | 2024-03-05T08:00:00Z",
    "05/Mar/2024:08:00:00 GMT         | 2024-03-05T08:00:00Z",
    "2024-03-05T08:00:00Z             | 2024-03-05T08:00:00Z",
    "2024-03-05t08:00:00.123456+01:00 | 2024-03-05T07:00:00.123Z",
    "2024-03-05 08:00:00,250-0130     | 2024-03-05T09:30:00.250Z",
    "2024-03-05T08:00+02              | 2024-03-05T06:00:00Z",
    "2024-03-05T08:00:00              | 2024-03-05T08:00:00Z",
    "1709625600                       | 2024-03-05T08:00:00Z",
    "1709625600.25                    | 2024-03-05T08:00:00.250Z",
    "1709625600250                    | 2024-03-05T08:00:00.250Z",
    "1709625600250123                 | 2024-03-05T08:00:00.250Z",
    "1709625600250123456              | 2024-03-05T08:00:00.250Z",
    "1.70962560025E9                  | 2024-03-05T08:00:00.250Z",
  })
  void text(String text, String instant) {
    assertEquals(Instant.parse(instant).toEpochMilli(), new Timestamps().parseText(text));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "now", "10/Oct/2000:13:55:36 -07", "10/Oct/2000:13:55:36 PST",
      "10/Oct/2000:13:55:36-0700", "32/Oct/2000:13:55:36 -0700", "29/Feb/2023:00:00:00 +0000",
      "10/Oct/2000:13:61:36 -0700", "2024-13-05T08:00:00Z", "2024-03-05X08:00:00Z",
      "2024-03-05T08:00:00 Z", "2024-03-05T08:00:00+2500", "12:00", "-5", "1.2.3"})
  void invalid(String text) {
    assertEquals(Timestamps.INVALID, new Timestamps().parseText(text));
  }

  @Test
  void theCachesNeverReturnAStaleValue() {
    Timestamps cached = new Timestamps();
    String[] seq = {
      "10/Oct/2000:13:55:36 -0700", "10/Oct/2000:13:55:36 -0700", "10/Oct/2000:13:55:37 -0700",
      "10/Oct/2000:13:55:37 +0000", "11/Oct/2000:13:55:37 +0000", "10/Oct/2000:13:55:37 +0000",
      "bad", "10/Oct/2000:13:55:37 +0000", "10/Oct/2000:13:55:37.5 +0000"};
    for (String t : seq) {
      byte[] b = ("[" + t + "]").getBytes(StandardCharsets.US_ASCII);
      assertEquals(new Timestamps().parseText(t), cached.parseNcsa(b, 1, b.length - 1), t);
    }
  }

  @Test
  void everyDayOfFourHundredYearsAgreesWithJavaTime() {
    for (LocalDate d = LocalDate.of(1900, 1, 1); d.getYear() < 2300; d = d.plusDays(1)) {
      assertEquals(d.toEpochDay(),
          Timestamps.daysFromCivil(d.getYear(), d.getMonthValue(), d.getDayOfMonth()), d::toString);
      assertEquals(d.lengthOfMonth(), Timestamps.daysInMonth(d.getYear(), d.getMonthValue()));
    }
  }
}
