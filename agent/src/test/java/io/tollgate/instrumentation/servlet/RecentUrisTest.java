package io.tollgate.instrumentation.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A kept URI is the string the container's bytes say, whatever else was kept in its slot. */
class RecentUrisTest {

  private static String read(RecentUris recent, String inBuffer, int start, int length) {
    return recent.of(inBuffer.getBytes(StandardCharsets.ISO_8859_1), start, length);
  }

  @ParameterizedTest
  @ValueSource(strings = {"/hello", "/", "", "/a/b/c?x=1", "/caf\u00e9", "/hellp", "/jello",
      "/tenants/t1/orders/17", "/tenants/t2/orders/17"})
  void theStringIsTheBytesAsTheyAreAtEveryRead(String uri) {
    RecentUris recent = new RecentUris();
    for (String other : new String[] {"/hello", "/hellp", "/jello", "/x/hello"}) {
      read(recent, other, 0, other.length());
    }
    assertEquals(uri, read(recent, uri, 0, uri.length()));
    assertEquals(uri, read(recent, uri, 0, uri.length()), "read again");
    assertEquals(uri, read(recent, "GET " + uri + " HTTP/1.1", 4, uri.length()), "at an offset");
  }

  @Test
  void theSameUriAgainIsTheSameString() {
    RecentUris recent = new RecentUris();
    String first = read(recent, "/hello", 0, 6);
    assertSame(first, read(recent, "/hello", 0, 6));
    assertSame(first, read(recent, "xx/hello", 2, 6));
  }
}
