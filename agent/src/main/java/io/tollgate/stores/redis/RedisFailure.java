package io.tollgate.stores.redis;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.util.Locale;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/**
 * Why Redis could not decide, sorted by what it says about the backend, because each calls for a
 * different answer.
 *
 * <ul>
 *   <li>{@link #UNREACHABLE}: no connection, and none coming: an attempt to connect was refused
 *       (nothing listens), timed out (the connect timeout, 5 s by default, also for the
 *       handshake), failed its handshake (TLS, authentication), or was reset partway with Redis
 *       silent for longer than the connect timeout (below); or the first connection was never
 *       made. It opens the circuit breaker. The one kind that says Redis cannot be reached.
 *   <li>{@link #RECONNECTING}: no connection while the reconnect after a drop is still under way
 *       and nothing says Redis is gone, by the end of the decision's wait for it ({@code max-wait}
 *       after the drop; its {@code timeout} once the drop is older). Never sent. Decided by the
 *       rule's local share like {@link #SLOW}, whatever its {@code on-failure}: a connection to a
 *       live server that is slow to come back (on a loaded host the reconnect alone can take
 *       longer than {@code max-wait}) is slow, not down, and {@code allow} would lift the limit for
 *       as long as it takes. Nothing says Redis is gone while no attempt failed, and also while the
 *       attempts that failed were taken by the peer and then reset or closed partway ({@link
 *       #attemptKilledPartway}) and Redis answered within the connect timeout: a path that flaps
 *       (a reset every second on a host where a reconnect takes longer than that) kills attempts
 *       to a server that answered a moment ago. Bounded by the connect timeout both ways: an
 *       attempt that hangs (a host that drops the SYN) fails at it, and attempts killed partway
 *       count as failed once Redis has not answered for that long, so at most the connect timeout
 *       after Redis's last answer; a refused attempt counts at once. Then the breaker opens and
 *       {@link #UNREACHABLE} applies the policy. The price: a proxy or load balancer (HAProxy,
 *       Envoy, a cloud LB) in front of a dead Redis also takes the connection and resets it, so
 *       towards it the share decides for up to the connect timeout after Redis's last answer
 *       before {@code on-failure} does.
 *   <li>{@link #LOST}: the call was sent and its connection went before the reply came (a drop, a
 *       reset). The script may have run. Decided like {@link #SLOW}, by the rule's local share:
 *       a connection that was alive a moment ago is most often back in a round trip, and when it
 *       is not, the reconnect fails, the breaker opens and the next decisions get the policy.
 *   <li>{@link #HUNG}: the connection is up but nothing at all came back on it for the whole
 *       {@code max-wait}: a frozen server ({@code kill -STOP}), replies later than {@code
 *       max-wait} with nothing in between, or a host so overloaded that its client threads did
 *       not run. Decided by the rule's local share like {@link #SLOW}, whatever its {@code
 *       on-failure}: the connection is alive, so nothing says Redis is gone, and {@code allow}
 *       would switch the limit off for as long as Redis is slow. Not counted by the breaker (on
 *       a host at a load of 9 per core, half a second without a reply happens with Redis alive);
 *       instead the backend is marked hung until the next reply, and meanwhile decisions wait
 *       only their {@code timeout}. (A dead peer is found by TCP keep-alive, which drops the
 *       connection: then the reconnect fails and {@link #UNREACHABLE} applies the policy.)
 *   <li>{@link #SLOW}: the reply was later than {@code max-wait} while other replies kept coming.
 *       Redis is alive and the host (or Redis) is busy: this one decision is made by the rule's
 *       local share, whose state follows Redis's ({@link FailurePolicyStore}), whatever the
 *       rule's {@code on-failure}; nothing else changes. Never counts toward the breaker, since the
 *       app's own load causes it.
 *   <li>{@link #SERVER_ERROR}: an error reply every command would get (OOM, LOADING, BUSY,
 *       READONLY, MASTERDOWN, CLUSTERDOWN, NOAUTH...). Counts toward the breaker.
 *   <li>{@link #RULE_ERROR}: an error reply about this call's key or script (WRONGTYPE, a script
 *       error, an unexpected reply). The rule's own problem: it falls back for that rule, is logged
 *       by rule, and never touches the breaker or the other rules.
 *   <li>{@link #BUSY}: not sent, because 7/8 of the connection's request queue is calls still
 *       waiting for late replies (never cancelled, so that their counts still land on Redis).
 *       Decided at once by the rule's local share, which charges Redis later what it allowed
 *       (the call never ran there); Redis is alive and slow, which is not down. (A late reply not
 *       waited for because {@code redis.max-waiting-threads} threads already wait is {@link
 *       #SLOW}: that call was sent.)
 *   <li>{@link #CLOSED}: the backend was closed (a reload changed the server, or {@code redis} to
 *       {@code local}, and a decision that began on the old rules came after the drain). Decided
 *       by the local share: a reload must not refuse what the old rules would have allowed.
 * </ul>
 *
 * <p>Only {@link #UNREACHABLE}, {@link #SERVER_ERROR} and {@link #RULE_ERROR} apply the rule's
 * {@code on-failure}; every other kind is decided by its local share ({@link
 * #decidedByLocalShare}).
 */
public enum RedisFailure {
  UNREACHABLE,
  RECONNECTING,
  LOST,
  HUNG,
  SLOW,
  SERVER_ERROR,
  RULE_ERROR,
  BUSY,
  CLOSED;

  /** Error codes Redis gives to every command while the server (not the key) is in trouble. */
  private static final String[] SERVER_WIDE_CODES = {
    "OOM", "LOADING", "BUSY", "READONLY", "MASTERDOWN", "CLUSTERDOWN", "NOAUTH", "NOPERM",
    "NOREPLICAS", "MISCONF", "TRYAGAIN", "WRONGPASS", "UNKILLABLE"
  };

  /** Whether this failure says the backend as a whole is in trouble (the breaker counts it). */
  public boolean countsTowardBreaker() {
    return this == SERVER_ERROR;
  }

  /**
   * Whether a decision that failed so is made by the rule's local share whatever its {@code
   * on-failure}: Redis is slow, busy or being replaced, not unreachable.
   */
  public boolean decidedByLocalShare() {
    return this == SLOW || this == LOST || this == HUNG || this == BUSY || this == CLOSED
        || this == RECONNECTING;
  }

  /**
   * Whether a decision that failed so is decided by the local share and was surely never sent
   * (Redis never counted it): what the share admits of it is charged to Redis later. ({@link
   * #UNREACHABLE}'s are never sent either; the policy decides them.)
   */
  public boolean shareOwesRedis() {
    return this == BUSY || this == RECONNECTING;
  }

  /** Whether Redis itself answered (so the connection and the server are alive). */
  public boolean redisAnswered() {
    return this == RULE_ERROR;
  }

  /**
   * The kind of a failure thrown while a command ran (not timeouts, which the backend tells apart
   * by what else came back meanwhile).
   */
  static RedisFailure of(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof RedisCommandExecutionException) {
        return ofErrorReply(t.getMessage());
      }
      String message = t.getMessage();
      if (message != null && message.contains("Internal stack size exceeded")) {
        return BUSY; // Lettuce's queue of late commands is full: Redis is slow, not gone
      }
    }
    return UNREACHABLE;
  }

  /** The kind of an error reply, by its code (the message's first word). */
  static RedisFailure ofErrorReply(String message) {
    String text = message == null ? "" : message.trim();
    int space = text.indexOf(' ');
    String code = (space < 0 ? text : text.substring(0, space)).toUpperCase(Locale.ROOT);
    for (String serverWide : SERVER_WIDE_CODES) {
      if (serverWide.equals(code)) {
        return SERVER_ERROR;
      }
    }
    // A script that hit OOM while running says "ERR Error running script ...: OOM ..." or similar.
    String upper = text.toUpperCase(Locale.ROOT);
    if (upper.contains("-OOM ") || upper.contains(" OOM COMMAND NOT ALLOWED")) {
      return SERVER_ERROR;
    }
    return RULE_ERROR;
  }

  /**
   * Whether {@code failure} says the connection went while the call was on it (a reset, a close),
   * rather than that the call was refused before it was sent (not connected, a full queue).
   */
  static boolean connectionWentAway(Throwable failure) {
    if (rejectedWhileDisconnected(failure)) {
      return false;
    }
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String message = t.getMessage();
      if (t instanceof IOException || t instanceof ClosedChannelException
          || (message != null && (message.startsWith("Connection closed")
              || message.startsWith("Connection disconnected")
              || message.contains("Connection reset")))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code failure}, an attempt to connect's, says the peer took the connection and then
   * reset or closed it partway (during the handshake): a path that flaps, or a proxy in front of a
   * dead server; not yet evidence that Redis is gone ({@link #RECONNECTING}). A reset that comes
   * before the client finished connecting is one too (the peer's kernel answered the SYN: Netty's
   * {@code AnnotatedSocketException: Connection reset by peer}), and one that comes once connected
   * but before Lettuce has begun its handshake: the closed channel's pipeline has lost its
   * handlers, and Lettuce's reconnect says {@code IllegalStateException: RedisHandshakeHandler not
   * registered} (with Redis killed behind a proxy, batched, at a load of 21, that one attempt
   * opened the breaker a second after Redis's last answer, not five: BENCHMARKS.md section 7,
   * h-bound). Not a refusal (nothing listens,
   * {@code ECONNREFUSED}), no route, an unknown host, a timeout (Netty's connect timeout is a
   * {@link java.net.ConnectException} too), nor a handshake's error (TLS, authentication): each
   * of those counts at once.
   */
  static boolean attemptKilledPartway(Throwable failure) {
    boolean killed = false;
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof ConnectException || t instanceof NoRouteToHostException
          || t instanceof UnknownHostException || t instanceof SSLException
          || t instanceof TimeoutException || t instanceof SocketTimeoutException
          || t instanceof RedisCommandTimeoutException
          || t instanceof RedisCommandExecutionException) {
        return false;
      }
      String message = t.getMessage();
      if (t instanceof ClosedChannelException
          || (message != null && (message.contains("Connection reset")
              || message.startsWith("Connection closed prematurely")))
          || (t instanceof IllegalStateException
              && "RedisHandshakeHandler not registered".equals(message))) {
        killed = true;
      }
    }
    return killed;
  }

  /**
   * Whether {@code failure} (a late reply's, perhaps wrapped) is {@code NOSCRIPT}: the script was
   * not cached on the server, so the call did not run and counted nothing there.
   */
  static boolean scriptNotCached(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof io.lettuce.core.RedisNoScriptException) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code failure} is Lettuce rejecting a command before sending it: never sent. */
  static boolean rejectedWhileDisconnected(Throwable failure) {
    String message = failure == null ? null : failure.getMessage();
    return message != null && message.contains("not connected") && !(failure instanceof IOException)
        && !(failure instanceof ClosedChannelException);
  }
}
