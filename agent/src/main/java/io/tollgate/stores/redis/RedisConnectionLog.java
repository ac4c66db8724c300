package io.tollgate.stores.redis;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionStateListener;
import io.tollgate.diagnostics.AgentLog;
import java.net.SocketAddress;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

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
  private final AtomicBoolean lost = new AtomicBoolean();

  /**
   * @param connectedOnce whether the backend has had a connection: a first attempt whose handshake
   *     timed out loses no connection (the backend says so itself)
   */
  RedisConnectionLog(String address, BooleanSupplier closing, BooleanSupplier connectedOnce) {
    this.address = address;
    this.closing = closing;
    this.connectedOnce = connectedOnce;
  }

  @Override
  public void onRedisDisconnected(RedisChannelHandler<?, ?> connection) {
    if (!closing.getAsBoolean() && connectedOnce.getAsBoolean()
        && lost.compareAndSet(false, true)) {
      AgentLog.warn("lost the connection to redis at " + address + "; reconnecting");
    }
  }

  @Override
  public void onRedisConnected(RedisChannelHandler<?, ?> connection, SocketAddress socketAddress) {
    if (lost.compareAndSet(true, false)) {
      AgentLog.info("reconnected to redis at " + address);
    }
  }
}
