package io.tollgate.stores.redis;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionStateListener;
import io.tollgate.logging.AgentLog;
import java.net.SocketAddress;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * Says in the agent's log when a connection to Redis is lost and when it is back, so that an
 * operator reading the log after an outage does not take the client's last "cannot reconnect"
 * warning for the state of things. One line each way per outage, not one per reconnect attempt;
 * nothing while the backend is being closed (a reload that changed the server).
 */
final class RedisConnectionLog implements RedisConnectionStateListener {

  private final String address;
  private final BooleanSupplier closing;
  private final BooleanSupplier connectedOnce;
  private final Predicate<RedisChannelHandler<?, ?>> watched;
  private final AtomicBoolean lost = new AtomicBoolean();

  /**
   * @param connectedOnce whether the backend has had a connection: a first attempt whose handshake
   *     timed out loses no connection (the backend says so itself)
   * @param watched the connections to report on: with Sentinel, not the short connections the
   *     client makes to the sentinels to look the master up (each would say "lost")
   */
  RedisConnectionLog(String address, BooleanSupplier closing, BooleanSupplier connectedOnce,
      Predicate<RedisChannelHandler<?, ?>> watched) {
    this.address = address;
    this.closing = closing;
    this.connectedOnce = connectedOnce;
    this.watched = watched;
  }

  @Override
  public void onRedisDisconnected(RedisChannelHandler<?, ?> connection) {
    if (!closing.getAsBoolean() && connectedOnce.getAsBoolean() && watched.test(connection)
        && lost.compareAndSet(false, true)) {
      AgentLog.warn("lost the connection to redis at " + address + "; reconnecting");
    }
  }

  @Override
  public void onRedisConnected(RedisChannelHandler<?, ?> connection, SocketAddress socketAddress) {
    if (watched.test(connection) && lost.compareAndSet(true, false)) {
      AgentLog.info("reconnected to redis at " + address);
    }
  }
}
