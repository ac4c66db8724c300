package io.tollgate.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CidrTest {

  @ParameterizedTest(name = "{0} is {1}")
  @CsvSource(delimiter = '|', value = {
    "10.0.0.0/8            | 10.0.0.0/8",
    "10.1.2.3/8            | 10.0.0.0/8",
    "192.0.2.1             | 192.0.2.1/32",
    "0.0.0.0/0             | 0.0.0.0/0",
    "' 172.16.0.0/12 '     | 172.16.0.0/12",
    "2001:db8::/32         | 2001:db8::/32",
    "2001:DB8:1::5/48      | 2001:db8:1::/48",
    "::1                   | ::1/128",
    "::/0                  | ::/0",
    "fe80::/10             | fe80::/10",
    "::ffff:10.0.0.0/104   | 10.0.0.0/8",
    "::ffff:10.0.0.1       | 10.0.0.1/32",
  })
  void parsesAndCanonicalises(String text, String canonical) {
    assertEquals(canonical, Cidr.parse(text).toString());
  }

  @ParameterizedTest(name = "rejects [{0}]")
  @ValueSource(strings = {"", "/8", "10.0.0.0/", "10.0.0.0/33", "10.0.0.0/-1", "10.0.0.0/8/8", "10.0.0.0/ 8",
    "::/129", "::ffff:0.0.0.0/95", "example.com/8", "10.0.0/8", "fe80::1%eth0/64", "10.0.0.0/0008"})
  void rejectsBadCidrs(String text) {
    assertThrows(IllegalArgumentException.class, () -> Cidr.parse(text));
  }

  @ParameterizedTest(name = "{0} contains {1}: {2}")
  @CsvSource(delimiter = '|', value = {
    "10.0.0.0/8         | 10.255.255.255       | true",
    "10.0.0.0/8         | 11.0.0.0             | false",
    "10.0.0.0/8         | 9.255.255.255        | false",
    "172.16.0.0/12      | 172.31.255.255       | true",
    "172.16.0.0/12      | 172.32.0.0           | false",
    "192.0.2.1/32       | 192.0.2.1            | true",
    "192.0.2.1/32       | 192.0.2.2            | false",
    "0.0.0.0/0          | 203.0.113.9          | true",
    "0.0.0.0/0          | 2001:db8::1          | false",
    "::/0               | 2001:db8::1          | true",
    "::/0               | 203.0.113.9          | false",
    "::/0               | ::ffff:203.0.113.9   | false",
    "10.0.0.0/8         | ::ffff:10.1.1.1      | true",
    "::ffff:10.0.0.0/104 | 10.1.1.1            | true",
    "2001:db8::/32      | 2001:db8:ffff::1     | true",
    "2001:db8::/32      | 2001:db9::1          | false",
    "fe80::/10          | febf::1              | true",
    "fe80::/10          | fec0::1              | false",
    "fe80::/10          | fe80::1%eth0         | true",
    "::1                | 0:0:0:0:0:0:0:1      | true",
    "10.0.0.0/8         | not-an-ip            | false",
    "10.0.0.0/8         | ''                   | false",
  })
  void contains(String cidr, String address, boolean expected) {
    assertEquals(expected, Cidr.parse(cidr).contains(address));
  }
}
