package io.tollgate.testing.redis;

import java.nio.file.Path;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives tests a real Redis server: a {@link RedisServer} parameter of a test, constructor or
 * lifecycle method.
 *
 * <p>The shared server (one per test JVM) comes from, in order: the environment variable
 * {@code REDIS_URL}; Testcontainers, when a Docker engine answers; a {@code redis-server} binary on
 * {@code PATH} (or {@code REDIS_SERVER_BIN}), run on a free port; the {@code redis-server} shipped in
 * the test dependency {@code com.github.codemonstur:embedded-redis}, run the same way. Set the
 * system property {@code tollgate.test.redis} to {@code url}, {@code docker}, {@code path} or
 * {@code embedded} to use only that source.
 *
 * <p>A parameter annotated {@link PrivateRedis} gets a server process of the test's own (from the
 * binary on PATH, else the embedded one), which the test may stop, kill, pause and restart, and which
 * is killed by process id after the test.
 *
 * <p>It never skips: when no Redis can be had, the test fails and says how to get one.
 */
public final class RedisServerExtension implements ParameterResolver {

  private static final Namespace NAMESPACE = Namespace.create(RedisServerExtension.class);

  static final String HOW_TO_GET_ONE =
      "set REDIS_URL=redis://host:port to a Redis you run; or install redis-server so that it is"
          + " on PATH (Debian/Ubuntu: apt-get install redis-server, macOS: brew install redis), or"
          + " point REDIS_SERVER_BIN at one; or start a Docker engine for Testcontainers.";

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext extension) {
    return parameter.getParameter().getType() == RedisServer.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext extension) {
    try {
      if (parameter.isAnnotated(PrivateRedis.class)) {
        RedisProcess server = startPrivate();
        extension.getStore(NAMESPACE).put(new Object(), new Closer(server));
        return server;
      }
      return extension
          .getRoot()
          .getStore(NAMESPACE)
          .getOrComputeIfAbsent("shared", key -> new Shared(startShared()), Shared.class)
          .server;
    } catch (ParameterResolutionException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new ParameterResolutionException("cannot start redis for the test: " + e.getMessage(), e);
    }
  }

  /** A server process of the caller's own; close it (it is killed by process id) when done. */
  public static RedisProcess startPrivate() {
    Path binary = RedisBinaries.onPath();
    if (binary == null) {
      binary = RedisBinaries.embedded();
    }
    if (binary == null) {
      throw new ParameterResolutionException(
          "this test needs a redis-server process of its own (it stops or kills it) and there is"
              + " no redis-server binary here: " + HOW_TO_GET_ONE);
    }
    return RedisProcess.start(binary);
  }

  static RedisServer startShared() {
    String only = System.getProperty("tollgate.test.redis", "");
    String url = System.getenv("REDIS_URL");
    if ((only.isEmpty() || only.equals("url")) && url != null && !url.trim().isEmpty()) {
      if (!url.startsWith("redis://") && !url.startsWith("rediss://")) {
        throw new ParameterResolutionException("REDIS_URL must be redis://host:port: " + url);
      }
      return new ExternalRedis(url.trim(), "REDIS_URL", null);
    }
    if ((only.isEmpty() || only.equals("docker")) && Containers.dockerAvailable()) {
      return Containers.startRedis();
    }
    if (only.isEmpty() || only.equals("path")) {
      Path binary = RedisBinaries.onPath();
      if (binary != null) {
        return RedisProcess.start(binary);
      }
    }
    if (only.isEmpty() || only.equals("embedded")) {
      Path binary = RedisBinaries.embedded();
      if (binary != null) {
        return RedisProcess.start(binary);
      }
    }
    throw new ParameterResolutionException(
        "no Redis server for the tests"
            + (only.isEmpty() ? "" : " from source '" + only + "' (tollgate.test.redis)")
            + ": " + HOW_TO_GET_ONE);
  }

  /** Kills a private server (by process id) when the test's context closes. */
  static final class Closer implements ExtensionContext.Store.CloseableResource, AutoCloseable {
    private final RedisProcess server;

    Closer(RedisProcess server) {
      this.server = server;
    }

    @Override
    public void close() {
      server.close();
    }
  }

  /** The shared server, ended when the test JVM's root context closes. */
  static final class Shared implements ExtensionContext.Store.CloseableResource, AutoCloseable {
    final RedisServer server;

    Shared(RedisServer server) {
      this.server = server;
    }

    @Override
    public void close() throws Exception {
      if (server instanceof RedisProcess) {
        ((RedisProcess) server).close();
      } else if (server instanceof ExternalRedis) {
        ((ExternalRedis) server).close();
      }
    }
  }
}
