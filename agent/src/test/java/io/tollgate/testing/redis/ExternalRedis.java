package io.tollgate.testing.redis;

import java.net.URI;

/** A server the harness did not start (REDIS_URL, or a container): it can only be used. */
final class ExternalRedis implements RedisServer {

  private final String uri;
  private final String host;
  private final int port;
  private final String source;
  private final AutoCloseable owner;

  ExternalRedis(String uri, String source, AutoCloseable owner) {
    URI parsed = URI.create(uri);
    this.uri = uri;
    this.host = parsed.getHost();
    this.port = parsed.getPort() > 0 ? parsed.getPort() : 6379;
    this.source = source;
    this.owner = owner;
  }

  @Override
  public String uri() {
    return uri;
  }

  @Override
  public String host() {
    return host;
  }

  @Override
  public int port() {
    return port;
  }

  @Override
  public String source() {
    return source;
  }

  @Override
  public boolean isOwnProcess() {
    return false;
  }

  @Override
  public long pid() {
    return -1;
  }

  @Override
  public void stop() {
    throw unsupported();
  }

  @Override
  public void kill() {
    throw unsupported();
  }

  @Override
  public void pause() {
    throw unsupported();
  }

  @Override
  public void resume() {
    throw unsupported();
  }

  @Override
  public void restart() {
    throw unsupported();
  }

  private UnsupportedOperationException unsupported() {
    return new UnsupportedOperationException(
        "the redis at " + uri + " (" + source + ") is not a process of this test; use"
            + " RedisServerExtension.startPrivate() or @PrivateRedis");
  }

  void close() throws Exception {
    if (owner != null) {
      owner.close();
    }
  }

  @Override
  public String toString() {
    return uri + " (" + source + ")";
  }
}
