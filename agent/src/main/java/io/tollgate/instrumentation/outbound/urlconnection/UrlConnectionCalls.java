package io.tollgate.instrumentation.outbound.urlconnection;

import io.tollgate.bootstrap.OutboundCallRefused;
import io.tollgate.bootstrap.Refusal;
import io.tollgate.engine.TollgateGate;
import io.tollgate.instrumentation.EntryPointHandler;
import io.tollgate.instrumentation.outbound.OutboundRefusals;
import io.tollgate.outbound.OutboundDecision;
import io.tollgate.outbound.OutboundLimiter;
import java.lang.ref.WeakReference;
import java.net.HttpURLConnection;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The JDK's {@code HttpURLConnection}: a connection is one call, decided at the first of its
 * {@code connect}, {@code getOutputStream} and {@code getInputStream} (which call each other, and
 * which the application may call in any order and more than once: the decision is remembered per
 * connection); a refused connection throws {@link OutboundCallRefused} from each of them, as the
 * client throws its own {@code IOException}s. The partner's answer is read when {@code
 * getInputStream} (which {@code getResponseCode} calls) returns or throws, once.
 */
final class UrlConnectionCalls implements EntryPointHandler {

  static final String CONNECT = "connect";
  static final String OUTPUT = "getOutputStream";
  static final String INPUT = "getInputStream";

  /** The decision of each connection seen: a {@link Sent}, or the refusal it throws again. */
  private static final Map<Object, Object> DECIDED =
      Collections.synchronizedMap(new WeakHashMap<>());
  /** Set while this handler reads a connection's answer (which calls getInputStream again). */
  private static final ThreadLocal<Boolean> READING = new ThreadLocal<>();

  private final TollgateGate engine;

  UrlConnectionCalls(TollgateGate engine) {
    this.engine = engine;
  }

  /** A connection sent: its answer is read once. Holds it weakly: it is the map's key. */
  private static final class Sent {
    final OutboundLimiter limiter;
    final UrlConnectionCall call;
    final WeakReference<HttpURLConnection> connection;
    final AtomicBoolean answered = new AtomicBoolean();

    Sent(OutboundLimiter limiter, UrlConnectionCall call, HttpURLConnection connection) {
      this.limiter = limiter;
      this.call = call;
      this.connection = new WeakReference<>(connection);
    }
  }

  @Override
  public Object enter(Object connection, Object what) {
    if (!(connection instanceof HttpURLConnection) || READING.get() != null) {
      return null;
    }
    Object known = DECIDED.get(connection);
    if (known instanceof OutboundCallRefused) {
      return Refusal.returning(known);
    }
    if (known != null) {
      return INPUT.equals(what) ? known : null;
    }
    OutboundLimiter limiter = engine.outbound();
    if (!limiter.active()) {
      return null;
    }
    HttpURLConnection http = (HttpURLConnection) connection;
    UrlConnectionCall call = new UrlConnectionCall(http);
    OutboundDecision decision = limiter.beforeSend(call);
    if (!decision.send()) {
      OutboundCallRefused refused = OutboundRefusals.exception(decision, call);
      DECIDED.put(connection, refused);
      return Refusal.returning(refused);
    }
    Sent sent = new Sent(limiter, call, http);
    DECIDED.put(connection, sent);
    return INPUT.equals(what) ? sent : null;
  }

  @Override
  public Object returned(Object scope, Object result) {
    answered(scope);
    return result;
  }

  @Override
  public void exit(Object scope, Throwable thrown) {
    answered(scope); // a 4xx or 5xx answer is thrown by getInputStream, and read all the same
  }

  private static void answered(Object scope) {
    if (!(scope instanceof Sent)) {
      return;
    }
    Sent sent = (Sent) scope;
    HttpURLConnection connection = sent.connection.get();
    if (connection == null || !sent.answered.compareAndSet(false, true)) {
      return;
    }
    READING.set(Boolean.TRUE);
    try {
      int status = statusOf(connection.getHeaderField(0));
      if (status > 0) {
        sent.limiter.afterResponse(sent.call, status, connection::getHeaderField);
      }
    } finally {
      READING.remove();
    }
  }

  /** The status of a status line, {@code HTTP/1.1 429 Too Many Requests}; -1 when none. */
  static int statusOf(String statusLine) {
    if (statusLine == null || !statusLine.startsWith("HTTP/")) {
      return -1;
    }
    int space = statusLine.indexOf(' ');
    if (space < 0 || statusLine.length() < space + 4) {
      return -1;
    }
    try {
      return Integer.parseInt(statusLine.substring(space + 1, space + 4));
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
