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

  /** The default bound of the reorder buffer in requests: see {@link #reorderMaxRequests(int)}. */
  public static final int DEFAULT_REORDER_MAX_REQUESTS = 100_000;
  /** The default bound of the reorder buffer in bytes: see {@link #reorderMaxBytes(long)}. */
  public static final long DEFAULT_REORDER_MAX_BYTES = 48L << 20;

  private int reorderMaxRequests = DEFAULT_REORDER_MAX_REQUESTS;
  private long reorderMaxBytes = DEFAULT_REORDER_MAX_BYTES;
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

  /**
   * The most requests the reorder buffers hold, all files together (each file gets its part):
   * past it, the oldest is released before its window has passed, so that a burst of the log
   * costs bounded memory whatever its rate (100,000 requests by default, about 40 MB).
   */
  public LogReadOptions reorderMaxRequests(int reorderMaxRequests) {
    this.reorderMaxRequests = reorderMaxRequests;
    return this;
  }

  /** As {@link #reorderMaxRequests}, in estimated bytes (48 MB by default). */
  public LogReadOptions reorderMaxBytes(long reorderMaxBytes) {
    this.reorderMaxBytes = reorderMaxBytes;
    return this;
  }

  public int reorderMaxRequests() {
    return reorderMaxRequests;
  }

  public long reorderMaxBytes() {
    return reorderMaxBytes;
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
