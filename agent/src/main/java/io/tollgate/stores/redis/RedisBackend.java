package io.tollgate.stores.redis;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.SslVerifyMode;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import io.tollgate.diagnostics.AgentLog;
import io.tollgate.diagnostics.RateLimitedLog;
import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One connection to Redis (a single server, a Sentinel group or a Cluster), shared by every rule
 * with {@code backend: redis}, and the one way scripts are run on it.
 *
 * <p>Built so that a request thread never waits long: every script call is bounded by the settings'
 * timeout (50 ms by default, never Lettuce's 60 s); commands issued while disconnected are rejected
 * at once rather than queued and replayed later; the request queue is bounded; and a circuit
 * breaker turns an outage into immediate {@link BackendUnavailableException}s after a few failures,
 * probing once per cool-down until Redis answers again. Lettuce reconnects on its own (delays from
 * 100 ms up to 2 s); the first connection is made in the background, so creating a backend never
 * blocks.
 *
 * <p>Scripts run with {@code EVALSHA}; on {@code NOSCRIPT} (restart, failover, {@code SCRIPT FLUSH})
 * the same call is made once with {@code EVAL}, which also caches the script again. Nothing else is
 * retried: after a timeout the script may have run already.
 */
public final class RedisBackend implements AutoCloseable {

  private static final AtomicInteger THREADS = new AtomicInteger();

  /** Reminders that a backend still cannot connect: at most once a minute each. */
  private static final RateLimitedLog CONNECT_FAILURES = new RateLimitedLog(60_000);

  private final RedisConnectionSettings settings;
  private final long timeoutNanos;
  private final CircuitBreaker breaker;
  private final ClientResources resources;
  private final AbstractRedisClient client;
  /** The single server or Sentinel URI, parsed up front; null for a cluster. */
  private final RedisURI singleUri;
  private final ScheduledExecutorService scheduler;

  private volatile StatefulConnection<String, String> connection;
  private volatile RedisScriptingAsyncCommands<String, String> commands;
  private volatile Throwable lastFailure;
  private final RedisOutageLog outage;
  private volatile boolean closed;
  private int connectAttempts;
  /** Open until the first connection attempt has ended, in success or failure. */
  private final CountDownLatch firstAttempt = new CountDownLatch(1);

  private RedisBackend(RedisConnectionSettings settings) {
    // Our (relocated) Lettuce and Netty log as Tollgate does, never through whatever the app has.
    RedisClientLogging.install();
    NettyWithoutUnsafe.onJdksThatWarn();
    this.settings = settings;
    this.outage = new RedisOutageLog(settings.address());
    this.timeoutNanos = settings.timeout().toNanos();
    // Invalid URIs fail here, before any thread is started.
    if (settings.isCluster()) {
      for (String seed : settings.clusterSeeds()) {
        redisUri(seed);
      }
    } else {
      redisUri(settings.uri());
    }
    this.breaker =
        new CircuitBreaker(settings.failureThreshold(), settings.openDuration().toNanos());
    this.resources =
        DefaultClientResources.builder()
            .ioThreadPoolSize(2)
            .computationThreadPoolSize(2)
            .reconnectDelay(
                Delay.exponential(
                    Duration.ofMillis(100), Duration.ofSeconds(2), 2, TimeUnit.MILLISECONDS))
            .build();
    SocketOptions socketOptions =
        SocketOptions.builder().connectTimeout(settings.connectTimeout()).keepAlive(true).build();
    TimeoutOptions timeoutOptions = TimeoutOptions.enabled(settings.timeout());
    SslOptions sslOptions = sslOptions(settings);
    if (settings.isCluster()) {
      List<RedisURI> seeds = new ArrayList<>();
      for (String seed : settings.clusterSeeds()) {
        seeds.add(redisUri(seed));
      }
      this.singleUri = null;
      RedisClusterClient cluster = RedisClusterClient.create(resources, seeds);
      cluster.setOptions(
          ClusterClientOptions.builder()
              .autoReconnect(true)
              .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
              .requestQueueSize(settings.requestQueueSize())
              .timeoutOptions(timeoutOptions)
              .socketOptions(socketOptions)
              .sslOptions(sslOptions)
              .topologyRefreshOptions(clusterTopologyRefresh())
              .build());
      this.client = cluster;
    } else {
      this.singleUri = redisUri(settings.uri());
      RedisClient single = RedisClient.create(resources);
      single.setOptions(
          ClientOptions.builder()
              .autoReconnect(true)
              .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
              .requestQueueSize(settings.requestQueueSize())
              .timeoutOptions(timeoutOptions)
              .socketOptions(socketOptions)
              .sslOptions(sslOptions)
              .build());
      this.client = single;
    }
    client.addListener(new RedisConnectionLog(settings.address(), () -> closed));
    ScheduledThreadPoolExecutor executor =
        new ScheduledThreadPoolExecutor(
            1,
            runnable -> {
              Thread thread =
                  new Thread(runnable, "tollgate-redis-" + THREADS.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    executor.setRemoveOnCancelPolicy(true);
    this.scheduler = executor;
  }

  /**
   * How a cluster client learns of a failover. A killed master sends no MOVED (nothing reaches it),
   * so the trigger is the reconnects to it that keep failing: after 3 of them (about 1 s with the
   * reconnect delays above) the topology is read again, and again at most once a second while
   * triggers keep coming (Lettuce's default is once per 30 s, which would leave the dead master's
   * slots, and through the shared breaker every key, on the on-failure policy for up to 30 s after
   * its replica took over). A periodic refresh every 10 s catches changes no trigger reports.
   */
  static ClusterTopologyRefreshOptions clusterTopologyRefresh() {
    return ClusterTopologyRefreshOptions.builder()
        .enableAllAdaptiveRefreshTriggers()
        .refreshTriggersReconnectAttempts(3)
        .adaptiveRefreshTriggersTimeout(Duration.ofSeconds(1))
        .enablePeriodicRefresh(Duration.ofSeconds(10))
        .dynamicRefreshSources(true)
        .closeStaleConnections(true)
        .build();
  }

  /** Creates the backend and starts connecting in the background; returns at once. */
  public static RedisBackend connect(RedisConnectionSettings settings) {
    RedisBackend backend = new RedisBackend(settings);
    backend.scheduler.execute(backend::connectOnce);
    return backend;
  }

  /**
   * Parses a Redis URI as the backend will; {@code validate} and the rules' check use it too, so
   * that a file that validates is a file the agent can connect with.
   *
   * @throws IllegalArgumentException saying what is wrong, without the password
   */
  public static RedisURI parseUri(String text) {
    String redacted = RedisConnectionSettings.redact(text);
    RedisURI uri;
    try {
      uri = RedisURI.create(text);
    } catch (RuntimeException e) {
      String why = String.valueOf(e.getMessage()).replace(text, redacted);
      throw new IllegalArgumentException("invalid redis uri " + redacted + ": " + why
          + uriHint(text));
    }
    return uri;
  }

  /** What usually breaks a Redis URI: a password with characters URIs reserve. */
  private static String uriHint(String text) {
    int scheme = text.indexOf("://");
    String rest = scheme < 0 ? text : text.substring(scheme + 3);
    return rest.indexOf('@') != rest.lastIndexOf('@') || rest.indexOf(' ') >= 0
            || (rest.indexOf('#') >= 0 && !text.startsWith("redis-sentinel://"))
        ? " (a password with @ / # ? % : or a space must be percent-encoded: @ as %40, / as %2F,"
            + " # as %23, ? as %3F, % as %25, : as %3A, a space as %20)"
        : "";
  }

  private RedisURI redisUri(String text) {
    RedisURI uri = parseUri(text);
    // Lettuce bounds a new connection's handshake (TLS, HELLO, AUTH) by this: give it the connect
    // timeout, as a TLS handshake on a cold or busy JVM can take longer than one decision may.
    // Decisions are bounded separately (TimeoutOptions and the deadline in eval).
    uri.setTimeout(
        settings.connectTimeout().compareTo(settings.timeout()) > 0
            ? settings.connectTimeout()
            : settings.timeout());
    if (uri.isSsl()) {
      uri.setVerifyPeer(SslVerifyMode.valueOf(settings.verifyPeer().name()));
    }
    return uri;
  }

  /**
   * TLS for {@code rediss://}: the JDK's TLS, trusting the CA file's certificates when one is given,
   * else the JVM's default trust store ({@code -Djavax.net.ssl.trustStore} applies).
   */
  private static SslOptions sslOptions(RedisConnectionSettings settings) {
    SslOptions.Builder ssl = SslOptions.builder().jdkSslProvider();
    String caFile = settings.tlsCaFile();
    if (caFile != null) {
      File file = new File(caFile);
      if (!file.isFile() || !file.canRead()) {
        throw new IllegalArgumentException(
            "redis.tls.ca-file " + caFile + " is not a readable file");
      }
      ssl.trustManager(file);
    }
    return ssl.build();
  }

  @SuppressWarnings("unchecked")
  private void connectOnce() {
    if (closed) {
      return;
    }
    CompletionStage<? extends StatefulConnection<String, String>> future;
    try {
      if (client instanceof RedisClusterClient) {
        RedisClusterClient cluster = (RedisClusterClient) client;
        // The first topology must be loaded before connecting; later changes refresh on their own.
        future =
            cluster.refreshPartitionsAsync().thenCompose(ignored -> cluster.connectAsync(StringCodec.UTF8));
      } else {
        future = ((RedisClient) client).connectAsync(StringCodec.UTF8, singleUri);
      }
    } catch (RuntimeException e) {
      onConnectFailure(e);
      return;
    }
    future.whenComplete(
        (conn, failure) -> {
          if (failure != null) {
            onConnectFailure(failure);
          } else if (closed) {
            conn.closeAsync();
          } else {
            if (conn instanceof StatefulRedisClusterConnection) {
              commands = ((StatefulRedisClusterConnection<String, String>) conn).async();
            } else {
              commands = ((StatefulRedisConnection<String, String>) conn).async();
            }
            connection = conn;
            breaker.onSuccess(CircuitBreaker.Permit.NORMAL);
            AgentLog.info("connected to " + settings
                + (connectAttempts > 0 ? " after " + (connectAttempts + 1) + " attempts" : ""));
          }
          firstAttempt.countDown();
        });
  }

  private void onConnectFailure(Throwable failure) {
    lastFailure = failure;
    firstAttempt.countDown();
    if (closed) {
      return;
    }
    int attempt = ++connectAttempts;
    if (attempt == 1) {
      AgentLog.warn("cannot connect to " + settings + " (" + describe(failure) + "); retrying");
    } else {
      CONNECT_FAILURES.warn(settings.toString(), () -> "still cannot connect to " + settings
          + " after " + attempt + " attempts (" + describe(failure) + "); retrying");
    }
    long delayMillis = Math.min(5_000L, 250L << Math.min(attempt - 1, 5));
    try {
      scheduler.schedule(this::connectOnce, delayMillis, TimeUnit.MILLISECONDS);
    } catch (RuntimeException ignored) {
      // shut down meanwhile
    }
  }

  /**
   * Runs {@code script} on {@code key} with {@code args}, within the timeout.
   *
   * @throws BackendUnavailableException quickly when Redis cannot answer
   */
  @SuppressWarnings("unchecked")
  public List<Object> eval(RedisScript script, String key, String... args) {
    CircuitBreaker.Permit permit = breaker.tryAcquire();
    if (permit == CircuitBreaker.Permit.REJECTED) {
      throw unavailable("circuit open after: " + describe(lastFailure), lastFailure);
    }
    long deadline = System.nanoTime() + timeoutNanos;
    RedisScriptingAsyncCommands<String, String> c = commands;
    if (c == null && !closed) {
      c = awaitFirstConnection(deadline);
    }
    if (c == null || closed) {
      breaker.onFailure(permit);
      if (closed) {
        throw new BackendUnavailableException("redis backend closed", lastFailure, 0);
      }
      throw unavailable("not connected: " + describe(lastFailure), lastFailure);
    }
    String[] keys = {key};
    try {
      Object result;
      try {
        result = await(c.evalsha(script.sha1(), ScriptOutputType.MULTI, keys, args), deadline);
      } catch (RedisNoScriptException e) {
        // Not cached on this node (restart, failover, SCRIPT FLUSH): EVAL loads it again.
        result = await(c.eval(script.body(), ScriptOutputType.MULTI, keys, args), deadline);
      }
      breaker.onSuccess(permit);
      outage.answered();
      return result instanceof List ? (List<Object>) result : singleton(result);
    } catch (RuntimeException e) {
      lastFailure = e;
      breaker.onFailure(permit);
      throw unavailable(describe(e), e);
    }
  }

  /** Logged (at most once a minute while it lasts): the caller applies its on-failure policy. */
  private BackendUnavailableException unavailable(String reason, Throwable cause) {
    outage.decisionFailed(reason);
    return new BackendUnavailableException(
        "redis cannot decide: " + reason, cause, breaker.remainingOpenNanos());
  }

  private static List<Object> singleton(Object value) {
    List<Object> list = new ArrayList<>(1);
    list.add(value);
    return list;
  }

  private static <T> T await(Future<T> future, long deadline) {
    try {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        future.cancel(false);
        throw new TimeoutRuntimeException();
      }
      return future.get(left, TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      future.cancel(false);
      throw new TimeoutRuntimeException();
    } catch (InterruptedException e) {
      future.cancel(false);
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for redis", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RedisNoScriptException) {
        throw (RedisNoScriptException) cause;
      }
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      throw new IllegalStateException(String.valueOf(cause), cause);
    }
  }

  /**
   * A decision that comes while the backend is still making its first connection (the first
   * requests after the application started) waits for it, within its own timeout, rather than
   * fall to the rule's failure policy for being early. Once that attempt has ended, nothing waits
   * here: a backend that lost its connection, or never made one, answers at once.
   */
  private RedisScriptingAsyncCommands<String, String> awaitFirstConnection(long deadline) {
    try {
      firstAttempt.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return commands;
  }

  /** The decision took longer than the timeout. */
  static final class TimeoutRuntimeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TimeoutRuntimeException() {
      super("timed out", null, false, false);
    }
  }

  /** For startup probes and tests: waits until the first connection is up; true if it is. */
  public boolean awaitConnected(Duration max) {
    long deadline = System.nanoTime() + max.toNanos();
    while (commands == null && !closed) {
      if (System.nanoTime() - deadline > 0) {
        return false;
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return commands != null && !closed;
  }

  /** Whether the connection is up now (Lettuce may be reconnecting). */
  public boolean isConnected() {
    StatefulConnection<String, String> conn = connection;
    return conn != null && conn.isOpen();
  }

  public CircuitBreaker breaker() {
    return breaker;
  }

  public RedisConnectionSettings settings() {
    return settings;
  }

  ScheduledExecutorService scheduler() {
    return scheduler;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    firstAttempt.countDown();
    scheduler.shutdownNow();
    try {
      client.shutdown(0, 2, TimeUnit.SECONDS);
    } catch (RuntimeException ignored) {
      // best effort
    }
    try {
      resources.shutdown(0, 2, TimeUnit.SECONDS);
    } catch (RuntimeException ignored) {
      // best effort
    }
  }

  static String describe(Throwable failure) {
    if (failure == null) {
      return "no answer yet";
    }
    if (failure instanceof TimeoutRuntimeException) {
      return "timed out";
    }
    StringBuilder out = new StringBuilder();
    Throwable current = failure;
    String previous = null;
    for (int depth = 0; current != null && depth < 4; depth++) {
      String message = current.getMessage();
      // Lettuce and Netty wrap a failure with its own message again: say each message once
      if (message == null || previous == null || !previous.contains(message)) {
        if (depth > 0) {
          out.append("; caused by ");
        }
        out.append(current.getClass().getSimpleName()).append(message == null ? "" : ": " + message);
      }
      previous = message;
      if (current.getCause() == current) {
        break;
      }
      current = current.getCause();
    }
    return out.toString();
  }

}
