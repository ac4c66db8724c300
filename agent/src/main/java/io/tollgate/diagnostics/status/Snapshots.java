package io.tollgate.diagnostics.status;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reading the members of a snapshot's JSON leniently: a member an older or newer agent does not
 * write reads as absent (0, null, empty), so that the command and the agent need not be the same
 * build to understand each other.
 */
final class Snapshots {

  private Snapshots() {}

  static long longOf(Object value) {
    return value instanceof Number ? ((Number) value).longValue() : 0;
  }

  static String stringOf(Object value) {
    return value == null ? null : String.valueOf(value);
  }

  static boolean booleanOf(Object value) {
    return Boolean.TRUE.equals(value);
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> objectOf(Object value) {
    return value instanceof Map ? (Map<String, Object>) value : Collections.emptyMap();
  }

  @SuppressWarnings("unchecked")
  static List<Object> listOf(Object value) {
    return value instanceof List ? (List<Object>) value : Collections.emptyList();
  }

  /** A JSON object of counters, as names to longs, in order. */
  static Map<String, Long> countersOf(Object value) {
    Map<String, Long> counters = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : objectOf(value).entrySet()) {
      counters.put(e.getKey(), longOf(e.getValue()));
    }
    return counters;
  }
}
