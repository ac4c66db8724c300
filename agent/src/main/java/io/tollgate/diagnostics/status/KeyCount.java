package io.tollgate.diagnostics.status;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One key of a top-keys list: its count, which may overestimate by at most {@code error}, and
 * what else its list says of it ({@code note}, or null), such as how early it came back.
 */
public final class KeyCount {
  public final String key;
  public final long count;
  public final long error;
  public final String note;

  public KeyCount(String key, long count, long error, String note) {
    this.key = key;
    this.count = count;
    this.error = error;
    this.note = note;
  }

  public KeyCount(String key, long count, long error) {
    this(key, count, error, null);
  }

  Map<String, Object> toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("key", key);
    json.put("count", count);
    json.put("error", error);
    if (note != null) {
      json.put("note", note);
    }
    return json;
  }

  static KeyCount fromJson(Map<String, Object> json) {
    return new KeyCount(String.valueOf(json.get("key")), Snapshots.longOf(json.get("count")),
        Snapshots.longOf(json.get("error")), Snapshots.stringOf(json.get("note")));
  }

  @Override
  public String toString() {
    return key + "=" + count + (error > 0 ? " (+/-" + error + ")" : "")
        + (note != null ? " (" + note + ")" : "");
  }
}
