package io.tollgate.http;

/**
 * A refusal as the client gets it: the status, every header (the quota headers, then {@code
 * Retry-After}, {@code Cache-Control} and {@code Tollgate-Rule}), the content type and the body.
 * The engine builds it ({@link RefusalBody#message}); each framework module writes it with its
 * own API (a servlet response, a JAX-RS {@code Response}, Jersey's {@code ContainerResponse}), so
 * that nothing here calls back into a module.
 *
 * <p>Immutable and shared: under a flood the refusals of a rule in the same second are the same
 * value, kept by the rule ({@link RefusalMessages}), so that a refused request allocates nothing
 * for its answer. The header array and the body are never written to; the modules only read them.
 */
public final class RefusalMessage {

  private final int status;
  /** Names and values alternating. */
  private final String[] headers;
  private final String contentType;
  private final byte[] body;
  /**
   * The names and values with their bytes ({@link HeaderText}), made when a module that writes
   * bytes first asks, and kept with the message: a flood's refusals copy them as they are.
   * Volatile: the array is filled before it is published.
   */
  private volatile HeaderText[] texts;
  /**
   * Whether no two header names are the same (by any case): then a module that writes them all
   * into a response it has just reset need not look for one set before each ({@link
   * #hasDistinctNames}). Found once per value, which a flood's refusals share.
   */
  private final boolean distinctNames;

  RefusalMessage(int status, String[] headers, String contentType, byte[] body) {
    this.status = status;
    this.headers = headers;
    this.contentType = contentType;
    this.body = body;
    this.distinctNames = namesDiffer(headers);
  }

  private static boolean namesDiffer(String[] headers) {
    for (int i = 0; i < headers.length; i += 2) {
      for (int j = i + 2; j < headers.length; j += 2) {
        if (headers[i].equalsIgnoreCase(headers[j])) {
          return false;
        }
      }
    }
    return true;
  }

  /** 429, the rule's own status, or 503 when the shared backend could not decide. */
  public int status() {
    return status;
  }

  /** How many headers, each a {@link #headerName} and a {@link #headerValue}. */
  public int headerCount() {
    return headers.length / 2;
  }

  public String headerName(int i) {
    return headers[2 * i];
  }

  public String headerValue(int i) {
    return headers[2 * i + 1];
  }

  /**
   * The {@code i}-th header's name ({@code value} false) or value as {@link HeaderText}: for a
   * module that writes headers as bytes.
   */
  public HeaderText headerText(int i, boolean value) {
    return headerTexts()[2 * i + (value ? 1 : 0)];
  }

  /**
   * Every name and value as {@link HeaderText}, names and values alternating as {@link
   * #namesAndValues}: for a module that writes them all as bytes with one read of the kept array.
   * Shared with every refusal of this value, so never to be written to.
   */
  public HeaderText[] headerTexts() {
    HeaderText[] kept = texts;
    if (kept == null) {
      kept = new HeaderText[headers.length];
      for (int h = 0; h < kept.length; h++) {
        kept[h] = HeaderText.of(headers[h]);
      }
      texts = kept; // two racing threads make the same texts
    }
    return kept;
  }

  /** Whether every header has a name of its own (by any case): none is set twice. */
  public boolean hasDistinctNames() {
    return distinctNames;
  }

  /**
   * The headers as names and values alternating, for a framework that takes them so: shared with
   * every refusal of this value, so never to be written to.
   */
  public String[] namesAndValues() {
    return headers;
  }

  public String contentType() {
    return contentType;
  }

  /** The body's bytes, shared with every refusal of this value: never to be written to. */
  public byte[] body() {
    return body;
  }

  /** The value of the first header of {@code name} (case-insensitive), or null; for tests and logs. */
  public String header(String name) {
    for (int i = 0; i + 1 < headers.length; i += 2) {
      if (headers[i].equalsIgnoreCase(name)) {
        return headers[i + 1];
      }
    }
    return null;
  }

  /** Whether the first {@code length} entries of {@code quota} are this value's first headers. */
  boolean startsWith(String[] quota, int length) {
    // the quota headers come first; the refusal's own three follow them
    if (headers.length != length + 6) {
      return false;
    }
    for (int i = 0; i < length; i++) {
      String mine = headers[i];
      String theirs = quota[i];
      if (mine != theirs && !mine.equals(theirs)) {
        return false;
      }
    }
    return true;
  }
}
