package io.tollgate.replay.log;

/**
 * How {@link AccessLogFiles} reads logs: the format (null to recognise each file's own), the JSON
 * field names, the reorder window and the longest line kept. Mutable, with chained setters; the
 * defaults suit nginx, Apache and Tomcat logs as they come.
 */
public final class LogReadOptions {

  /** The default reorder window: see {@link #reorderWindowMillis(long)}. */
  public static final long DEFAULT_REORDER_WINDOW_MILLIS = 5_000;
  /** The default longest line: see {@link #maxLineBytes(int)}. */
  public static final int DEFAULT_MAX_LINE_BYTES = 8 << 20;

  private LogFormat format;
  private JsonFields jsonFields = JsonFields.defaults();
  private long reorderWindowMillis = DEFAULT_REORDER_WINDOW_MILLIS;
  private int maxLineBytes = DEFAULT_MAX_LINE_BYTES;

  /** The format of every file, or null (the default) to recognise each file's from its first lines. */
  public LogReadOptions format(LogFormat format) {
    this.format = format;
    return this;
  }

  /** The names of the fields of JSON logs. */
  public LogReadOptions jsonFields(JsonFields jsonFields) {
    this.jsonFields = jsonFields;
    return this;
  }

  /**
   * How late, in log time, a line may come after a line stamped later and still be put back in
   * its place (see {@link ReorderBuffer}). Servers write lines when requests complete, so a slow
   * request's line follows faster later ones; a window longer than the slowest requests of
   * interest puts them back in order. Costs memory for the requests of that long (5 s of a
   * 10,000-request/s log: 50,000 requests).
   */
  public LogReadOptions reorderWindowMillis(long reorderWindowMillis) {
    this.reorderWindowMillis = reorderWindowMillis;
    return this;
  }

  /** Lines longer than this are unparsed lines (cut), not requests; the rest of them is skipped. */
  public LogReadOptions maxLineBytes(int maxLineBytes) {
    this.maxLineBytes = maxLineBytes;
    return this;
  }

  public LogFormat format() {
    return format;
  }

  public JsonFields jsonFields() {
    return jsonFields;
  }

  public long reorderWindowMillis() {
    return reorderWindowMillis;
  }

  public int maxLineBytes() {
    return maxLineBytes;
  }
}
