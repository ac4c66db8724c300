package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionException;
import java.io.IOException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which failures say Redis as a whole is in trouble (the breaker counts them) and which do not. */
class RedisFailureKindTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
    "WRONGTYPE Operation against a key holding the wrong kind of value | RULE_ERROR",
    "ERR Error running script (call to f_1234): user_script:12: bad argument | RULE_ERROR",
    "ERR user_script:3: Script attempted to access a non local key | RULE_ERROR",
    "OOM command not allowed when used memory > 'maxmemory'. | SERVER_ERROR",
    "LOADING Redis is loading the dataset in memory | SERVER_ERROR",
    "BUSY Redis is busy running a script. | SERVER_ERROR",
    "READONLY You can't write against a read only replica. | SERVER_ERROR",
    "MASTERDOWN Link with MASTER is down | SERVER_ERROR",
    "CLUSTERDOWN The cluster is down | SERVER_ERROR",
    "NOAUTH Authentication required. | SERVER_ERROR",
  })
  void anErrorReplyIsTheRulesOwnUnlessEveryCommandWouldGetIt(String reply, RedisFailure kind) {
    assertEquals(kind, RedisFailure.of(new RedisCommandExecutionException(reply)));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"Connection reset by peer", "Connection refused", "Connection closed"})
  void aFailureWithoutAReplyIsUnreachable(String message) {
    assertEquals(
        RedisFailure.UNREACHABLE,
        RedisFailure.of(new RedisConnectionException(message, new IOException(message))));
  }

  @ParameterizedTest(name = "{0} -> went away: {1}")
  @CsvSource(delimiter = '|', value = {
    "Connection closed | true",
    "Connection disconnected | true",
    "Currently not connected. Commands are rejected. | false",
    "Request queue size exceeded: 1024. Commands are not accepted until the queue size drops. | false",
  })
  void aCallLostWithItsConnectionIsToldFromOneNeverSent(String message, boolean wentAway) {
    assertEquals(wentAway,
        RedisFailure.connectionWentAway(new io.lettuce.core.RedisException(message)));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"UNREACHABLE, false", "RECONNECTING, false", "LOST, false", "HUNG, false",
      "SLOW, false", "SERVER_ERROR, true", "RULE_ERROR, false", "BUSY, false", "CLOSED, false"})
  void onlyWhatSaysRedisIsDownCountsTowardTheBreaker(RedisFailure kind, boolean counts) {
    assertEquals(counts, kind.countsTowardBreaker());
  }

  /**
   * on-failure is for a Redis that cannot be reached; slow (a reconnect slow to come too), busy or
   * replaced is the local share's.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"UNREACHABLE, false", "SERVER_ERROR, false", "RULE_ERROR, false", "LOST, true",
      "HUNG, true", "SLOW, true", "BUSY, true", "CLOSED, true", "RECONNECTING, true"})
  void aSlowOrBusyRedisIsDecidedByTheLocalShareNotByOnFailure(RedisFailure kind, boolean local) {
    assertEquals(local, kind.decidedByLocalShare());
  }

  /**
   * What the local share admits of a call never sent is charged to Redis later (else every
   * instance's share is on top of what Redis counts); one that may have run is not.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"UNREACHABLE, false", "RECONNECTING, true", "LOST, false", "HUNG, false",
      "SLOW, false", "SERVER_ERROR, false", "RULE_ERROR, false", "BUSY, true", "CLOSED, false"})
  void whatTheShareAdmitsOfACallNeverSentIsChargedToRedis(RedisFailure kind, boolean owed) {
    assertEquals(owed, kind.shareOwesRedis());
  }

  /**
   * A reconnect attempt that the peer took and then reset or closed partway is told from one that
   * says Redis is gone: refused (nothing listens), timed out, no route, a handshake's error. The
   * messages are those Lettuce 6.8 and Netty gave through {@code FaultyProxy} (reset at accept:
   * before or after the client finished connecting; reset at the handshake's first bytes; reset
   * once connected but before Lettuce began its handshake: {@code RedisHandshakeHandler not
   * registered}, seen with Redis killed behind the proxy, batched, at a load of 21).
   */
  @ParameterizedTest(name = "{0}: {1} -> killed partway: {2}")
  @CsvSource(delimiter = '|', value = {
    "IOException in CompletionException | Connection reset by peer | true",
    "SocketException | Connection reset | true",
    "SocketException | Connection reset by peer: /127.0.0.1:6379 | true",
    "RedisConnectionException | Connection closed prematurely | true",
    "ClosedChannelException | - | true",
    "IllegalStateException | RedisHandshakeHandler not registered | true",
    "IllegalStateException | some other state | false",
    "ConnectException | Connection refused | false",
    "RedisConnectionException over ConnectException | Connection refused | false",
    "ConnectTimeoutException | connection timed out: /10.0.0.9:6379 | false",
    "RedisCommandTimeoutException | Connection initialization timed out after 5 second(s) | false",
    "NoRouteToHostException | No route to host | false",
    "SSLHandshakeException over SocketException | Connection reset | false",
    "RedisCommandExecutionException | NOAUTH Authentication required. | false",
    "RedisConnectionException | Unable to connect | false",
  })
  void aReconnectAttemptKilledPartwayIsToldFromOneThatSaysRedisIsGone(String thrown,
      String message, boolean killedPartway) {
    Throwable failure;
    switch (thrown) {
      case "IOException in CompletionException":
        failure = new java.util.concurrent.CompletionException(new IOException(message));
        break;
      case "SocketException":
        failure = new java.net.SocketException(message);
        break;
      case "RedisConnectionException":
        failure = new RedisConnectionException(message);
        break;
      case "ClosedChannelException":
        failure = new java.nio.channels.ClosedChannelException();
        break;
      case "IllegalStateException":
        failure = new IllegalStateException(message);
        break;
      case "ConnectException":
        failure = new java.net.ConnectException(message);
        break;
      case "RedisConnectionException over ConnectException":
        failure = new RedisConnectionException("Unable to connect to 127.0.0.1:6379",
            new java.net.ConnectException(message));
        break;
      case "ConnectTimeoutException":
        failure = new io.netty.channel.ConnectTimeoutException(message);
        break;
      case "RedisCommandTimeoutException":
        failure = new io.lettuce.core.RedisCommandTimeoutException(message);
        break;
      case "NoRouteToHostException":
        failure = new java.net.NoRouteToHostException(message);
        break;
      case "SSLHandshakeException over SocketException":
        failure = new javax.net.ssl.SSLHandshakeException("Remote host terminated the handshake");
        failure.initCause(new java.net.SocketException(message));
        break;
      case "RedisCommandExecutionException":
        failure = new RedisCommandExecutionException(message);
        break;
      default:
        throw new IllegalArgumentException(thrown);
    }
    assertEquals(killedPartway, RedisFailure.attemptKilledPartway(failure));
  }

  @org.junit.jupiter.api.Test
  void lettucesFullStackIsBusyNotDown() {
    assertEquals(RedisFailure.BUSY,
        RedisFailure.of(new io.lettuce.core.RedisException("Internal stack size exceeded: 1024")));
  }
}
