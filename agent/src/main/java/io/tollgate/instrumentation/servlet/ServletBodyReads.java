package io.tollgate.instrumentation.servlet;

import io.tollgate.bootstrap.Refusal;
import io.tollgate.engine.RequestScope;
import io.tollgate.engine.TollgateGate;
import io.tollgate.http.HttpExchange;
import io.tollgate.instrumentation.EntryPointHandler;
import io.tollgate.logging.RateLimitedLog;

/**
 * What the container request's parameter and body readers do when woven ({@link
 * BodyReadWeaver}): nothing, unless the request this thread serves has rules waiting for a form
 * field. Then, at the application's first read, before the container runs it: a parameter read
 * lets those rules read the field as the application is about to (parsed once by the container,
 * in the charset the application set; a multipart body first as parts, as the application asks,
 * since the container orders the parameters by which it parsed first); a raw read ({@code getInputStream}, {@code getReader})
 * leaves the form unparsed, so the rules decide without the field. A refusal is written and
 * returned as {@link Refusal#WRITTEN}, on which the bridge stops the application's read.
 */
final class ServletBodyReads implements EntryPointHandler {

  /** What the woven readers pass: the method parses the parameters. */
  static final String PARSED = "parsed";
  /** What the woven readers pass: the method parses a multipart body into parts. */
  static final String PARTS = "parts";
  /** What the woven readers pass: the method hands over the raw body. */
  static final String RAW = "raw";

  private final TollgateGate engine;
  private final RateLimitedLog rawReads = new RateLimitedLog(3_600_000);

  ServletBodyReads(TollgateGate engine) {
    this.engine = engine;
  }

  @Override
  public Object enter(Object request, Object how) {
    RequestScope scope = engine.currentRequest();
    if (scope == null || !scope.waitsForBody()) {
      return null; // nearly every call: one thread-local read
    }
    HttpExchange exchange = scope.exchange();
    if (!(exchange instanceof ServletExchange) || !scope.beginBodyRead()) {
      return null;
    }
    try {
      return decide(scope, (ServletExchange) exchange, how);
    } finally {
      scope.endBodyRead();
    }
  }

  private Object decide(RequestScope scope, ServletExchange servlet, Object how) {
    HttpExchange exchange = servlet;
    boolean raw = RAW.equals(how);
    if (PARTS.equals(how) && !servlet.parseParts()) {
      raw = true; // the container could not parse them: no field, as the application will see
    }
    servlet.applicationReadBody(raw);
    if (raw) {
      rawReads.log("raw", () -> "the application read the raw body of " + exchange.method() + " "
          + exchange.rawPath() + " (getInputStream or getReader): rules keyed by a form field"
          + " (form:, or param: not in the query string) decided it without that field,"
          + " which only a parsed form gives");
    }
    return engine.bodyRead(scope, servlet) ? Refusal.WRITTEN : null;
  }
}
