package io.tollgate.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KeyPartsTest {

  @Test
  void lengthPrefixesEveryPart() {
    assertEquals("7:1.2.3.4|3:a|b", KeyParts.join("1.2.3.4", "a|b"));
    assertEquals("11:1.2.3.4|3:a|1:b", KeyParts.join("1.2.3.4|3:a", "b"));
    assertEquals("0:|-", KeyParts.join("", null));
    assertEquals("", KeyParts.join());
    assertEquals("0:", KeyParts.join(""));
    assertEquals("-", KeyParts.join((String) null));
  }

  @Test
  void clientChosenPartsCannotForgeAnotherPair() {
    // the attack: ip "1.2.3.4" with username "a|b" against ip "1.2.3.4|a" with username "b", etc.
    assertNotEquals(KeyParts.join("1.2.3.4", "a|b"), KeyParts.join("1.2.3.4|a", "b"));
    assertNotEquals(KeyParts.join("1.2.3.4", "a|b"), KeyParts.join("1.2.3.4", "a", "b"));
    assertNotEquals(KeyParts.join("1.2.3.4", "3:a|1:b"), KeyParts.join("1.2.3.4", "a", "b"));
    assertNotEquals(KeyParts.join("1:a"), KeyParts.join("a"));
    assertNotEquals(KeyParts.join("", ""), KeyParts.join(""));
    assertNotEquals(KeyParts.join((String) null), KeyParts.join("-"));
    assertNotEquals(KeyParts.join("", null), KeyParts.join(null, ""));
  }

  @Test
  void isInjectiveOverAllSmallListsOfHostileParts() {
    String[] alphabet = {null, "", "|", ":", "-", "0:", "1:|", "a", "a|b", "1:a", "|0:", "-|", "7:1.2.3.4"};
    Map<String, List<String>> seen = new HashMap<>();
    List<List<String>> all = new ArrayList<>();
    all.add(Collections.<String>emptyList());
    for (String a : alphabet) {
      all.add(Collections.singletonList(a));
      for (String b : alphabet) {
        all.add(Arrays.asList(a, b));
        for (String c : alphabet) {
          all.add(Arrays.asList(a, b, c));
        }
      }
    }
    for (List<String> parts : all) {
      List<String> before = seen.put(KeyParts.join(parts), parts);
      if (before != null) {
        assertEquals(before, parts, "collision on " + KeyParts.join(parts));
      }
    }
    assertEquals(all.size(), seen.size());
  }
}
