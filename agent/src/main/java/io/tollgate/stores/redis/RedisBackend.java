package io.tollgate.stores.redis;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisFuture;
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
import io.lettuce.core.event.connection.ReconnectFailedEvent;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import io.lettuce.core.resource.NettyCustomizer;
import io.tollgate.config.RedisSettings;
import io.tollgate.logging.AgentLog;
import io.tollgate.logging.RateLimitedLog;
import java.io.File;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * One connection to Redis (a single server, a Sentinel group or a Cluster), shared by every rule
 * with {@code backend: redis}, and the one way scripts are run on it.
 *
 * <p>A request thread never waits long, and a busy host never switches a limit off. The rules of
 * waiting, by what Redis is doing:
 *
 * <ul>
 *   <li><b>Not connected</b> (refused, reset, closed): Lettuce reconnects at once after a drop,
 *       then every 50 ms doubling up to 500 ms. A decision waits for a reconnect under way, for
 *       up to {@code max-wait} after the drop (a dropped connection to a live server is mostly
 *       back in a round trip), and no longer; not at all once an attempt was killed partway
 *       (below). A reconnect still under way then, with nothing
 *       failed (the breaker closed), is slow, not down: the decision is made by its rule's local
 *       share ({@link RedisFailure#RECONNECTING}), as a late reply is; on a host loaded 20-33 the
 *       reconnect alone took longer than {@code max-wait} and {@code allow} lifted the limit
 *       (BENCHMARKS.md, section 7, h-reconnect). Only once an attempt fails (refused, the
 *       connect timeout, a handshake error) do decisions fail at once ({@link
 *       RedisFailure#UNREACHABLE}, the rule's {@code on-failure}); so a host that drops the SYN
 *       is the local share's for up to the connect timeout (5 s) after the drop, then the
 *       policy's. An attempt the peer took and then reset or closed partway is not counted as
 *       failed while Redis answered within the connect timeout ({@link #onReconnectFailed}: a
 *       flapping path kills slow reconnects to a live server), and is once Redis has not answered
 *       for that long; so towards a proxy in front of a dead Redis, which takes and resets every
 *       attempt, the share decides for up to the connect timeout after Redis's last answer. The
 *       first connection keeps its own wait ({@link #awaitFirstConnection}) and then fails at
 *       once.
 *       Commands are rejected while disconnected, never queued and replayed later; calls on
 *       the wire at the drop fail ({@link RedisFailure#LOST}) and are not sent again after the
 *       reconnect either (DroppedCallNotReplayedTest), so a decision left to the local share is
 *       never also spent in Redis later. Only a reconnect (or first connect) that fails (as above)
 *       opens the circuit breaker.
 *   <li><b>Connected, reply late</b>: a reply not back within the {@code timeout} (50 ms by
 *       default) is waited for up to the hard bound {@code max-wait} (1 s by default) as long as
 *       the backend is not marked hung. Under a flood that saturates the host, replies come late
 *       because the host is busy, not because Redis is gone: deciding them by the failure policy
 *       would switch the limit off exactly when it matters. A reply later than the hard bound while
 *       others kept coming is {@link RedisFailure#SLOW}; the breaker is not touched. At most
 *       {@code max-waiting-threads} request threads wait past their timeout at once (the
 *       bulkhead): a late reply past it is {@link RedisFailure#SLOW} at once, so a slow Redis never
 *       holds more of the app's threads. A late call is never cancelled (it was sent, its count
 *       lands); past 7/8 of Lettuce's request queue of them, nothing more is sent ({@link
 *       RedisFailure#BUSY}) until replies come.
 *       A reply is late only once this JVM has read what arrived: before a request thread gives
 *       up on its reply (at its {@code timeout} with the bulkhead full, at {@code max-wait}), and
 *       before Redis is counted silent ({@link #answeredWithin}), the connection's event loops
 *       must have run since that moment ({@link EventLoopBarrier}); on a host starved of CPU the
 *       replies wait unread in the socket while the request threads time out. That wait is
 *       bounded by the {@code timeout}: a thread waits at most {@code timeout} past its deadline
 *       for it (so at most {@code max-wait + timeout} in all), once more only when Redis's silence
 *       reached {@code max-wait} after that wait began (so never past {@code max-wait} and twice
 *       the {@code timeout}, nor 30 s: {@link #listenBoundNanos}); a loop that does not run
 *       within it makes the decision {@link RedisFailure#SLOW}, never Redis silent or hung.
 *       Those waits are for this JVM, not for Redis, and are not counted by {@code
 *       max-waiting-threads}; a loop that runs ends them in one pass.
 *   <li><b>Connected, nothing comes back</b> for a whole {@code max-wait} (a frozen server, a dead
 *       peer that sent no reset): {@link RedisFailure#HUNG}, and the backend is marked hung until
 *       the next reply arrives; meanwhile decisions wait only their {@code timeout}. Not counted
 *       by the breaker: an overloaded host can go that long without running its client threads.
 *   <li><b>An error reply</b>: one about the key or the script (WRONGTYPE, a script error) is the
 *       rule's own problem ({@link RedisFailure#RULE_ERROR}) and says Redis is alive; one every
 *       command would get (OOM, LOADING, READONLY...) counts toward the breaker.
 * </ul>
 *
 * <p>The breaker opens after a few failures that count (or at once when a connection cannot be
 * made), then answers at once, probing once per cool-down until Redis answers again; a connection
 * made closes it. The first connection is made in the background; the agent's start waits for it
 * ({@link #awaitStartingBackends}) so that no decision falls back at a normal start.
 *
 * <p>Scripts run with {@code EVALSHA}; on {@code NOSCRIPT} (restart, failover, {@code SCRIPT FLUSH})
 * the same call is made once with {@code EVAL}, which also caches the script again. A command that
 * Lettuce rejected before sending it (the connection dropped just then) is sent again once the
 * connection is back, within the timeout; nothing else is retried: after a timeout or a drop the
 * script may have run already.
 */
public final class RedisBackend implements AutoCloseable {

  private static final AtomicInteger THREADS = new AtomicInteger();

  /** Reminders that a backend still cannot connect: at most once a minute each. */
  private static final RateLimitedLog CONNECT_FAILURES = new RateLimitedLog(60_000);

  /** Backends whose first connection attempt has not ended: the agent's start waits for them. */
  private static final Set<RedisBackend> STARTING = ConcurrentHashMap.newKeySet();

  /** How often a decision that waits for a reconnect looks again. */
  private static final long RECONNECT_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  /**
   * How many calls of batched decisions may be in flight at once ({@link RedisBatcher}): see
   * BENCHMARKS.md, section 3, h-batch, for the measurement that chose it.
   */
  static final int BATCH_WINDOW = 4;

  /**
   * Whether decisions are batched unless a caller says: off, and on with {@code
   * -Dtollgate.redis.batch=true}. Since the window holds decisions back only while its calls are
   * answered ({@link RedisBatcher}), a slow Redis no longer makes it admit fewer than the limit
   * (the slow-Redis ladder 98-100 of 100, as a call per decision); but with every connection reset
   * once a second under a flood ({@code on-failure: allow}), batching let 112-257 through of a
   * limit of 100 in four quiet runs against 102-115 with a call per decision: more of its
   * decisions were decided by {@code on-failure} at a reset (BENCHMARKS.md, section 3, "Quiet,
   * 2026-12-06 (fifth session)"). That came, batched or not, from decisions that found no
   * connection by a wait dated from the drop before ({@link #noticeDrop}), mended: 100 either way
   * (section 7, h-batch4). Still off: two rounds of ten of six reloads under a flood admitted 106
   * and 103 batched, none a call per decision (late decisions of a starved instance admitted on
   * Redis's last {@code remaining}, {@link LateReplyLedger}'s covered bets).
   */
  private static final boolean BATCHING_BY_DEFAULT = Boolean.getBoolean("tollgate.redis.batch");

  private volatile RedisConnectionSettings settings;
  /** Volatile: a reload that changes only timings retimes the connection in place ({@link #retime}). */
  private volatile long timeoutNanos;
  private volatile long maxWaitNanos;
  /**
   * {@code redis.max-waiting-threads}: at most this many request threads wait for a reply past
   * their {@code timeout} at once (a healthy Redis answers within it, so only a slow one fills it).
   * One a decision: decisions that share a call ({@link RedisBatcher}) each hold a place.
   */
  private volatile int maxWaitingThreads;
  /** Request threads waiting for a reply past their timeout now (the bulkhead's count). */
  private final AtomicInteger waiting = new AtomicInteger();
  /**
   * Commands sent and not yet answered. Late commands are never cancelled (their counts must still
   * land on Redis), so they stay on Lettuce's stack until their replies come; past {@link
   * #outstandingCap} a decision is not sent at all. Counted one a decision, also when several share
   * a call ({@link RedisBatcher}) or wait to be sent: never fewer than Lettuce's commands, so the
   * cap errs on the side of Lettuce's queue.
   */
  private final AtomicInteger outstanding = new AtomicInteger();
  /** When calls began to be outstanding after none were ({@link System#nanoTime}). */
  private volatile long busySince = System.nanoTime();
  /**
   * 7/8 of Lettuce's request queue: a margin for the heartbeat and for commands between our count
   * and Lettuce's, so Lettuce never refuses one ("Internal stack size exceeded").
   */
  private final int outstandingCap;
  /** Calls inside {@link #eval} now: a backend retired by a reload is closed once none is left. */
  private final AtomicInteger inEval = new AtomicInteger();
  /** When the last reply of any call arrived ({@link System#nanoTime}). */
  private volatile long lastReplyNanos;
  /**
   * A call waited its whole {@code max-wait} and nothing at all came back meanwhile; cleared by the
   * next reply. While set, calls wait the {@code timeout} only.
   */
  private volatile boolean hung;
  /** When the connection was last lost ({@link System#nanoTime}); 0 before any loss. */
  private volatile long disconnectedAt;
  /**
   * When the connection was last made ({@link System#nanoTime}): a drop noticed after it is a new
   * one, dated anew ({@link #noticeDrop}).
   */
  private volatile long connectedAt = System.nanoTime();
  private final CircuitBreaker breaker;
  /**
   * The connection's event loops: a reply is late, and Redis silent, only once they have run since
   * it was due (the replies of a starved JVM wait unread in the socket; {@link EventLoopBarrier}).
   */
  private final EventLoopBarrier eventLoops = new EventLoopBarrier();
  private final ClientResources resources;
  private final AbstractRedisClient client;
  /** The single server or Sentinel URI, parsed up front; null for a cluster. */
  private final RedisURI singleUri;
  private final ScheduledExecutorService scheduler;

  private volatile StatefulConnection<String, String> connection;
  private volatile RedisScriptingAsyncCommands<String, String> commands;
  /**
   * Natural batching of token-bucket and gcra decisions; null unless asked for ({@link
   * #BATCHING_BY_DEFAULT}) and on a cluster (a call's keys must share a slot).
   */
  private final RedisBatcher batcher;
  private volatile Throwable lastFailure;
  /**
   * Reconnect attempts since the connection was last made that the peer took and then reset or
   * closed partway while Redis had answered within the connect timeout ({@link
   * #onReconnectFailed}): not counted as failed, so far; 0 again once a connection is made.
   */
  private final AtomicInteger attemptsKilledPartway = new AtomicInteger();
  private final RedisOutageLog outage;
  private volatile boolean closed;
  private int connectAttempts;
  /** Open until the first connection attempt has ended, in success or failure. */
  private final CountDownLatch firstAttempt = new CountDownLatch(1);
  /**
   * This backend's name to the scripts, so that a token it gives back for the other instances
   * ({@code gcra.lua}'s {@code refund}) is not taken again by its own next calls: random, short
   * (it goes with every decision), one per backend, so one per instance.
   */
  private final String callerId =
      Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36);

  /** @param batchWindow calls of batched decisions in flight at once; 0: no batching */
  private RedisBackend(RedisConnectionSettings settings, int batchWindow) {
    // Our (relocated) Lettuce and Netty log as Tollgate does, never through whatever the app has.
    RedisClientLogging.install();
    NettyWithoutUnsafe.onJdksThatWarn();
    NettyLeakTracesOff.unlessAsked();
    this.settings = settings;
    this.outage = new RedisOutageLog(settings.address());
    this.timeoutNanos = settings.timeout().toNanos();
    this.maxWaitNanos = settings.maxWait().toNanos();
    this.maxWaitingThreads = settings.maxWaitingThreads();
    this.outstandingCap = Math.max(1, settings.requestQueueSize() / 8 * 7);
    this.lastReplyNanos = System.nanoTime();
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
            .reconnectDelay(new ReconnectDelay())
            .nettyCustomizer(new NettyCustomizer() {
              @Override
              public void afterChannelInitialized(io.netty.channel.Channel channel) {
                eventLoops.channelInitialized(channel);
              }
            })
            .build();
    // Keep-alive finds a dead peer (no reset sent) in about 8 s of silence, and drops the
    // connection: its calls fail, the reconnect fails, the breaker opens. A stopped or slow server's
    // kernel still answers the probes: that is slow, not down, and decided by the local shares.
    SocketOptions socketOptions =
        SocketOptions.builder()
            .connectTimeout(settings.connectTimeout())
            .keepAlive(
                SocketOptions.KeepAliveOptions.builder()
                    .enable()
                    .idle(Duration.ofSeconds(5))
                    .interval(Duration.ofSeconds(1))
                    .count(3)
                    .build())
            .build();
    // No expiry by Lettuce: eval bounds its own waits (see the class comment), and a command
    // Lettuce expired would leave its stack while its reply is still to come, so our count of
    // what is outstanding would no longer be Lettuce's. A late command is never cancelled either:
    // it was sent, Redis runs it, its count lands.
    TimeoutOptions timeoutOptions = TimeoutOptions.create();
    SslOptions sslOptions = sslOptions(settings);
    if (settings.isCluster()) {
      List<RedisURI> seeds = new ArrayList<>();
      for (String seed : settings.clusterSeeds()) {
        seeds.add(redisUri(seed));
      }
      this.singleUri = null;
      this.batcher = null;
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
      // The window holds decisions back only while its calls are answered within a quarter of
      // the decisions' timeout (12.5 ms by default; a healthy Redis on a busy host answers in a
      // few ms): a decision queued behind late calls goes out well before its own timeout. (Half
      // of it, with every reply 20 ms late, let queued decisions reach 50 ms: p99 89-226 ms
      // against 42-46 ms without batching, the bulkhead holding them.)
      this.batcher = batchWindow > 0
          ? new RedisBatcher(batchWindow, () -> timeoutNanos / 4)
          : null;
      RedisClient single = RedisClient.create(resources);
      // REJECT_COMMANDS also keeps Lettuce from sending again, after the reconnect, the calls
      // that were on the wire at a drop: with autoReconnect alone it would (at least once), and a
      // decision already reported lost would be spent in Redis a second time. Lettuce fails the
      // first of them with the reset and cancels the rest ("Connection disconnected").
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
    client.addListener(new RedisConnectionLog(settings.address(), () -> closed, () -> connection != null,
        handler -> settings.isCluster() || handler == connection));
    if (!settings.isCluster()) {
      // One connection: its reconnects failing is Redis being unreachable. (A cluster's node
      // connections each reconnect on their own; one node down must not stop the others' slots.)
      client.addListener(new BreakerOnConnection());
      resources.eventBus().get().subscribe(event -> {
        if (event instanceof ReconnectFailedEvent && !closed) {
          onReconnectFailed(((ReconnectFailedEvent) event).getCause());
        }
      });
    }
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
    return connect(settings, BATCHING_BY_DEFAULT);
  }

  /** As above, with token-bucket and gcra decisions batched or not ({@link RedisBatcher}). */
  static RedisBackend connect(RedisConnectionSettings settings, boolean batching) {
    return connect(settings,
        batching ? Integer.getInteger("tollgate.redis.batch.window", BATCH_WINDOW) : 0);
  }

  /** As above, batching with a window of {@code batchWindow} calls in flight (0: none). */
  static RedisBackend connect(RedisConnectionSettings settings, int batchWindow) {
    if (batchWindow < 0) {
      throw new IllegalArgumentException("batch window must be 0 (none) or more: " + batchWindow);
    }
    RedisBackend backend = new RedisBackend(settings, batchWindow);
    STARTING.add(backend);
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
        future = cluster.refreshPartitionsAsync()
            .thenCompose(ignored -> cluster.connectAsync(ExactUtf8Codec.INSTANCE));
      } else {
        future = ((RedisClient) client).connectAsync(ExactUtf8Codec.INSTANCE, singleUri);
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
            noticeConnected();
            replied();
            breaker.close();
            AgentLog.info("connected to " + settings
                + (connectAttempts > 0 ? " after " + (connectAttempts + 1) + " attempts" : ""));
            firstAttemptEnded();
          }
        });
  }

  private void onConnectFailure(Throwable failure) {
    lastFailure = failure;
    // A connection that cannot be made: decisions answer at once until one is.
    breaker.open();
    if (closed) {
      firstAttemptEnded();
      return;
    }
    int attempt = ++connectAttempts;
    if (!isTimeout(failure)) {
      // Refused, unknown host, TLS or authentication: definite, the start need not wait longer.
      // A timeout on a busy host is not: the start waits for the retries, within its bound.
      firstAttemptEnded();
    }
    if (attempt == 1) {
      AgentLog.warn("cannot connect to " + settings + " (" + describe(failure) + "); retrying");
    } else {
      CONNECT_FAILURES.warn(settings.toString(), () -> "still cannot connect to " + settings
          + " after " + attempt + " attempts (" + describe(failure) + "); retrying");
    }
    long delayMillis = Math.min(500L, 50L << Math.min(attempt - 1, 4));
    try {
      scheduler.schedule(this::connectOnce, delayMillis, TimeUnit.MILLISECONDS);
    } catch (RuntimeException ignored) {
      // shut down meanwhile
    }
  }

  /**
   * A reconnect attempt after a drop failed: the breaker opens (decisions go to {@code
   * on-failure}), unless the peer took the attempt and reset or closed it partway while Redis had
   * answered within the connect timeout ({@link RedisFailure#attemptKilledPartway}). On a host
   * loaded 20-44 with the connection reset every second, a reconnect slower than a second was
   * killed by the next reset and, counted as failed, let {@code allow} admit 220 and 570 of a
   * limit of 100 while Redis answered throughout (BENCHMARKS.md, section 7, h-reconnect): such
   * attempts leave the decisions to their rules' local shares ({@link
   * RedisFailure#RECONNECTING}) until Redis has not answered for the connect timeout ({@link
   * #killedAttemptsOutlastedBound}). A refusal, a timeout or a handshake's error opens it at once.
   */
  private void onReconnectFailed(Throwable cause) {
    lastFailure = cause;
    if (RedisFailure.attemptKilledPartway(cause) && answeredWithinConnectTimeout()) {
      attemptsKilledPartway.incrementAndGet();
      return;
    }
    breaker.open();
  }

  /**
   * Whether Redis's last reply (or error reply) came within the connect timeout; before the first,
   * counted from when this backend was made. A connection made is not counted: its handshake's
   * reply is Lettuce's own, not one of this backend's.
   */
  private boolean answeredWithinConnectTimeout() {
    return nanosSinceRedisAnswered() < settings.connectTimeout().toNanos();
  }

  private long nanosSinceRedisAnswered() {
    return System.nanoTime() - lastReplyNanos;
  }

  /**
   * Whether reconnect attempts were killed partway since the drop and Redis has not answered for
   * the connect timeout: the flapping has outlasted its bound, and it counts as a failed attempt
   * ({@link RedisFailure#UNREACHABLE} applies {@code on-failure}), whether or not another attempt
   * has failed since. The first decision to see it opens the breaker ({@link #connectedCommands}),
   * as a failed attempt would have.
   */
  private boolean killedAttemptsOutlastedBound() {
    return attemptsKilledPartway.get() > 0 && !answeredWithinConnectTimeout();
  }

  /**
   * Reconnect attempts since the connection was last made that were reset partway while Redis had
   * answered within the connect timeout (for {@code status}); 0 while connected.
   */
  public int attemptsResetPartway() {
    return attemptsKilledPartway.get();
  }

  /** Milliseconds since Redis's last reply (as {@link #answeredWithinConnectTimeout} counts). */
  public long millisSinceRedisAnswered() {
    return TimeUnit.NANOSECONDS.toMillis(nanosSinceRedisAnswered());
  }

  private void firstAttemptEnded() {
    firstAttempt.countDown();
    STARTING.remove(this);
  }

  private static boolean isTimeout(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof TimeoutException || t instanceof io.lettuce.core.RedisCommandTimeoutException
          || t instanceof io.netty.channel.ConnectTimeoutException
          || t instanceof java.net.SocketTimeoutException) {
        return true;
      }
    }
    return false;
  }

  /**
   * Waits until every backend created so far has made its first connection, or failed to in a way
   * that waiting will not change (refused, unknown host, TLS, authentication), each for at most its
   * {@link RedisConnectionSettings#startupWait()}. The agent's start calls this before it says
   * {@code ready}, while requests wait for it ({@code EngineReadiness}): so the first requests are
   * decided by Redis, not by the failure policy for being early.
   *
   * @return the backends (their addresses) still not connected when the wait ended, or empty
   */
  public static List<String> awaitStartingBackends() {
    List<String> notConnected = new ArrayList<>();
    for (RedisBackend backend : new ArrayList<>(STARTING)) {
      try {
        backend.firstAttempt.await(
            backend.settings.startupWait().toNanos(), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    for (RedisBackend backend : new ArrayList<>(STARTING)) {
      if (!backend.closed && backend.commands == null) {
        notConnected.add(backend.settings.address());
      }
    }
    return notConnected;
  }

  /** Whether the first connection attempt has ended (in a connection, or a definite failure). */
  boolean firstAttemptHasEnded() {
    return firstAttempt.getCount() == 0;
  }

  /** Whether any backend is making its first connection (for the agent's start). */
  public static boolean anyStarting() {
    return !STARTING.isEmpty();
  }

  /** After the first connection attempt has ended, runs {@code task} on the backend's thread. */
  void afterFirstAttempt(Runnable task) {
    if (closed) {
      return;
    }
    try {
      scheduler.execute(
          () -> {
            if (firstAttempt.getCount() == 0) {
              task.run();
            } else {
              // Not yet: look again soon, without holding the one thread that connects.
              scheduler.schedule(() -> afterFirstAttempt(task), 20, TimeUnit.MILLISECONDS);
            }
          });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // closed meanwhile
    }
  }

  /**
   * Runs {@code script} on {@code key} with {@code args}: waits as the class comment says.
   *
   * @throws BackendUnavailableException when Redis cannot decide; its {@link
   *     BackendUnavailableException#kind()} says why
   */
  public List<Object> eval(RedisScript script, String key, String... args) {
    return eval(script, new String[] {key}, args);
  }

  /** As {@link #eval(RedisScript, String, String...)}, on several keys (of one Cluster slot). */
  public List<Object> eval(RedisScript script, String[] keys, String... args) {
    inEval.incrementAndGet();
    try {
      return evalCounted(script, keys, args);
    } finally {
      inEval.decrementAndGet();
    }
  }

  /**
   * Sends {@code script} without waiting for its reply: {@code done} gets the reply, or the
   * failure, on a client thread (at once, on this one, when the call cannot be sent: not
   * connected, the breaker open, too many calls outstanding; once the first connection attempt has
   * ended, on the backend's own thread, when it comes before). For writes no request waits on,
   * which must hold no application thread however slow Redis is. Never throws.
   */
  public void evalInBackground(RedisScript script, String key, String[] args,
      java.util.function.BiConsumer<List<Object>, Throwable> done) {
    evalInBackground(script, key, args, false, done);
  }

  /**
   * As {@link #evalInBackground(RedisScript, String, String[], java.util.function.BiConsumer)};
   * with {@code pastOpenBreaker}, also sent once the circuit breaker's open period has passed
   * while no decision has probed it yet (half open): for rare writes that must reach Redis as
   * soon as it may answer (a partner's wait, {@link RedisPartnerHolds}), which no request thread
   * waits on. A breaker stays half open until a decision probes it, which may be long on an
   * instance with no traffic on Redis rules.
   */
  void evalInBackground(RedisScript script, String key, String[] args, boolean pastOpenBreaker,
      java.util.function.BiConsumer<List<Object>, Throwable> done) {
    evalInBackground(script, key, args, pastOpenBreaker, false, done);
  }

  /**
   * As {@link #evalInBackground(RedisScript, String, String[], java.util.function.BiConsumer)},
   * for a decision no request waits on when it is sent (a {@link TokenLeaseStore}'s lease taken
   * ahead): its reply is noted as Redis answering, as a decision's is, so that an instance whose
   * hot keys are decided by leases still knows Redis answers ({@link #answeredWithin}).
   */
  void decideInBackground(RedisScript script, String key, String[] args,
      java.util.function.BiConsumer<List<Object>, Throwable> done) {
    evalInBackground(script, key, args, false, true, done);
  }

  @SuppressWarnings("unchecked")
  private void evalInBackground(RedisScript script, String key, String[] args,
      boolean pastOpenBreaker, boolean noteReply,
      java.util.function.BiConsumer<List<Object>, Throwable> done) {
    if (!closed && !firstAttemptHasEnded()) {
      // Still making its first connection (the app's first calls): sent once that has ended.
      afterFirstAttempt(
          () -> evalInBackground(script, key, args, pastOpenBreaker, noteReply, done));
      return;
    }
    String[] keys = {key};
    try {
      RedisScriptingAsyncCommands<String, String> c = commands;
      StatefulConnection<String, String> conn = connection;
      CircuitBreaker.State breakerState = breaker.state();
      if (closed || c == null || conn == null || !conn.isOpen()
          || breakerState == CircuitBreaker.State.OPEN
          || (breakerState == CircuitBreaker.State.HALF_OPEN && !pastOpenBreaker)) {
        done.accept(null, new BackendUnavailableException(
            "redis is not connected" + (lastFailure == null ? "" : ": " + describe(lastFailure)),
            lastFailure, 0,
            RedisFailure.UNREACHABLE));
        return;
      }
      send(() -> c.<Object>evalsha(script.sha1(), ScriptOutputType.MULTI, keys, args), noteReply)
          .whenComplete((result, thrown) -> {
            Throwable failure = thrown instanceof java.util.concurrent.CompletionException
                && thrown.getCause() != null ? thrown.getCause() : thrown;
            if (failure instanceof RedisNoScriptException) {
              // Not cached on this node (restart, failover, SCRIPT FLUSH): EVAL loads it again.
              try {
                send(() -> c.<Object>eval(script.body(), ScriptOutputType.MULTI, keys, args),
                    noteReply)
                    .whenComplete((again, failed) -> done.accept(
                        again instanceof List ? (List<Object>) again : singleton(again), failed));
              } catch (RuntimeException e) {
                done.accept(null, e);
              }
              return;
            }
            done.accept(failure != null ? null
                : result instanceof List ? (List<Object>) result : singleton(result), failure);
          });
    } catch (RuntimeException e) {
      done.accept(null, e);
    }
  }

  @SuppressWarnings("unchecked")
  private List<Object> evalCounted(RedisScript script, String[] keys, String... args) {
    boolean batched = batcher != null && script == RedisScript.GCRA && keys.length == 1;
    CircuitBreaker.Permit permit = breaker.tryAcquire();
    if (permit == CircuitBreaker.Permit.REJECTED) {
      DecisionPathTrace.count(batched, DecisionPathTrace.Path.CIRCUIT_OPEN);
      throw unavailable(
          RedisFailure.UNREACHABLE, "circuit open after: " + describe(lastFailure), lastFailure);
    }
    long sent = System.nanoTime();
    long softDeadline = sent + timeoutNanos;
    long hardDeadline = sent + maxWaitNanos;
    RuntimeException failure;
    RedisFailure kind;
    RedisFuture<Object> late = null;
    while (true) {
      RedisScriptingAsyncCommands<String, String> c =
          connectedCommands(softDeadline, hardDeadline);
      if (c == null) {
        if (DecisionPathTrace.ON) {
          DecisionPathTrace.count(batched, breaker.state() != CircuitBreaker.State.CLOSED
              ? DecisionPathTrace.Path.NOT_CONNECTED_BREAKER
              : reconnectDeadline(softDeadline, hardDeadline) == softDeadline
                  ? DecisionPathTrace.Path.NOT_CONNECTED_BY_TIMEOUT
                  : DecisionPathTrace.Path.NOT_CONNECTED_BY_RECONNECT_WAIT);
        }
        if (permit == CircuitBreaker.Permit.PROBE) {
          breaker.onFailure(permit);
        }
        if (closed) {
          throw new BackendUnavailableException(
              "redis backend closed", lastFailure, 0, RedisFailure.CLOSED);
        }
        if (reconnectUnderWay()) {
          throw unavailable(RedisFailure.RECONNECTING, reconnectingReason(), lastFailure);
        }
        throw unavailable(
            RedisFailure.UNREACHABLE, "not connected: " + describe(lastFailure), lastFailure);
      }
      try {
        Object result;
        try {
          late = send(() -> batched
              ? batcher.submit(c, keys[0], args)
              : c.evalsha(script.sha1(), ScriptOutputType.MULTI, keys, args));
          result = await(late, sent, softDeadline, hardDeadline);
        } catch (RedisNoScriptException e) {
          // Not cached on this node (restart, failover, SCRIPT FLUSH): EVAL loads it again.
          late = send(() -> c.eval(script.body(), ScriptOutputType.MULTI, keys, args));
          result = await(late, sent, softDeadline, hardDeadline);
        }
        breaker.onSuccess(permit);
        outage.answered();
        DecisionPathTrace.count(batched, DecisionPathTrace.Path.ANSWERED);
        return result instanceof List ? (List<Object>) result : singleton(result);
      } catch (TimeoutRuntimeException e) {
        failure = e;
        kind = e.kind;
        DecisionPathTrace.count(batched, DecisionPathTrace.Path.LATE);
        // Sent and not cancelled: its reply, when it comes, says what Redis decided of it.
        throw failed(permit, kind, failure).withLateReply(late);
      } catch (QueueFullException e) {
        failure = e;
        kind = RedisFailure.BUSY;
        DecisionPathTrace.count(batched, DecisionPathTrace.Path.NOT_SENT_BUSY);
        break;
      } catch (RuntimeException e) {
        if (RedisFailure.rejectedWhileDisconnected(e)) {
          noticeDrop();
        }
        if (RedisFailure.rejectedWhileDisconnected(e) && !closed
            && breaker.state() == CircuitBreaker.State.CLOSED
            && reconnectDeadline(softDeadline, hardDeadline) - System.nanoTime() > 0) {
          // Never sent: again once the connection is back, within the timeout. (Lettuce's
          // endpoint knows of a drop a little before the connection's isOpen() does.)
          DecisionPathTrace.count(batched, DecisionPathTrace.Path.RETRIED_AFTER_REJECT);
          LockSupport.parkNanos(RECONNECT_POLL_NANOS);
          continue;
        }
        failure = e;
        kind = RedisFailure.of(e);
        if (kind == RedisFailure.UNREACHABLE && RedisFailure.connectionWentAway(e)) {
          kind = RedisFailure.LOST; // sent, and the connection went before the reply
        } else if (kind == RedisFailure.UNREACHABLE && RedisFailure.rejectedWhileDisconnected(e)
            && reconnectUnderWay()) {
          kind = RedisFailure.RECONNECTING; // never sent, past its wait for a reconnect not failed
        }
        if (DecisionPathTrace.ON) {
          if (kind == RedisFailure.LOST) {
            DecisionPathTrace.count(batched, DecisionPathTrace.Path.LOST_WITH_CONNECTION);
          } else if (RedisFailure.rejectedWhileDisconnected(e)) {
            DecisionPathTrace.count(batched, kind == RedisFailure.RECONNECTING
                ? DecisionPathTrace.Path.REJECTED_PAST_DEADLINE
                : DecisionPathTrace.Path.REJECTED_RECONNECT_FAILED);
          } else if (kind == RedisFailure.UNREACHABLE) {
            DecisionPathTrace.countOther(batched, e);
          } else {
            DecisionPathTrace.count(batched, DecisionPathTrace.Path.OTHER);
          }
        }
        break;
      }
    }
    throw failed(permit, kind, failure);
  }

  /** A call that failed: noted for the breaker and the outage log. */
  private BackendUnavailableException failed(
      CircuitBreaker.Permit permit, RedisFailure kind, RuntimeException failure) {
    if (kind != RedisFailure.BUSY) {
      lastFailure = failure;
    }
    if (kind.countsTowardBreaker()) {
      breaker.onFailure(permit);
    } else if (kind == RedisFailure.SLOW || kind == RedisFailure.BUSY || kind.redisAnswered()) {
      breaker.onSuccess(permit); // Redis is alive: it answered this call, or others meanwhile
    } else if (permit == CircuitBreaker.Permit.PROBE) {
      breaker.onFailure(permit);
    }
    return unavailable(kind, describe(failure), failure);
  }

  /**
   * A decision saw the connection down: the drop is dated from now unless this one is known
   * already (noted since the connection was last made). Lettuce rejects commands a little before
   * it tells the listeners of the drop, which date it again ({@link BreakerOnConnection}).
   *
   * <p>Dated anew after every reconnect, not only once the last drop is {@code max-wait} old: with
   * the connection reset once a second under a flood ({@code run-redis-faults.sh}, round {@code
   * drop}), a drop that came a little less than {@code max-wait} after the one before kept the
   * older date, so the decisions at it waited for the reconnect only until that date's {@code
   * max-wait} ran out, a few ms, and went to {@code on-failure} (allow: 1-144 admitted over a
   * limit of 100 in 14 rounds of 16, with or without batching, every one of them so decided;
   * none after: BENCHMARKS.md, section 7, h-batch4).
   */
  private void noticeDrop() {
    long dropped = disconnectedAt;
    long now = System.nanoTime() | 1;
    if (dropped == 0 || now - dropped > maxWaitNanos || connectedAt - dropped > 0) {
      disconnectedAt = now;
    }
  }

  /**
   * Whether a decision that found no connection found a reconnect under way with nothing failed
   * (or just made): a connection was made before (not the first), the backend is open, the
   * breaker is closed (a failed attempt opens it, and only a connection made closes it again),
   * and attempts killed partway, if any, have not outlasted the connect timeout since Redis last
   * answered ({@link #onReconnectFailed}).
   */
  private boolean reconnectUnderWay() {
    return commands != null && !closed && breaker.state() == CircuitBreaker.State.CLOSED
        && !killedAttemptsOutlastedBound();
  }

  /** Why a decision found no connection with a reconnect under way, for the outage log. */
  private String reconnectingReason() {
    int killed = attemptsKilledPartway.get();
    return killed == 0
        ? "not connected again yet after a drop, and no reconnect failed"
        : "not connected again yet after a drop: " + killed + " attempt(s) reset partway while"
            + " redis answered " + millisSinceRedisAnswered() + " ms ago (on-failure once it has"
            + " not for the connect timeout, " + settings.connectTimeout().toMillis() + " ms): "
            + describe(lastFailure);
  }

  /** The connection is made (again): the next drop is a new one. */
  private void noticeConnected() {
    connectedAt = System.nanoTime();
    attemptsKilledPartway.set(0);
  }

  /**
   * How long a decision waits for a reconnect: its timeout, or longer while the reconnect after a
   * drop is young (within {@code max-wait} of the drop, and of the decision's start).
   */
  private long reconnectDeadline(long softDeadline, long hardDeadline) {
    long dropped = disconnectedAt;
    if (dropped == 0) {
      return softDeadline;
    }
    long young = dropped + maxWaitNanos;
    long deadline = young - hardDeadline < 0 ? young : hardDeadline;
    return deadline - softDeadline > 0 ? deadline : softDeadline;
  }

  /**
   * The commands when the connection is up; else waits for the first connection (within {@code
   * softDeadline}) or for a reconnect under way (the breaker closed: no attempt has failed yet,
   * or only attempts killed partway within the connect timeout of Redis's last answer),
   * within {@link #reconnectDeadline}, read after the drop is noticed here and again at every
   * look: a decision that is the first to see a drop waits as long as the ones after it (the
   * deadline read before, it waited its timeout only). Null when there is none by then.
   */
  private RedisScriptingAsyncCommands<String, String> connectedCommands(long softDeadline,
      long hardDeadline) {
    RedisScriptingAsyncCommands<String, String> c = commands;
    StatefulConnection<String, String> conn = connection;
    if (c != null && conn.isOpen()) {
      return c;
    }
    if (closed) {
      return null;
    }
    if (c == null) {
      awaitFirstConnection(softDeadline);
      c = commands;
      conn = connection;
      if (c == null) {
        return null;
      }
    }
    if (!conn.isOpen()) {
      noticeDrop();
    }
    while (!conn.isOpen()) {
      if (closed || breaker.state() != CircuitBreaker.State.CLOSED) {
        return null;
      }
      if (killedAttemptsOutlastedBound()) {
        breaker.open(); // the flapping outlasted its bound: as a failed attempt, from now on
        return null;
      }
      if (attemptsKilledPartway.get() > 0) {
        // An attempt was killed partway: the next comes after Lettuce's back-off and may be
        // killed too. The share decides now, rather than every request holding its thread for
        // up to max-wait until the bound (behind a proxy in front of a dead Redis: 22 answers a
        // second per JVM for 5 s, an unrelated path's p99 up to 0.9 s; BENCHMARKS.md, section 7,
        // h-bound).
        return null;
      }
      if (reconnectDeadline(softDeadline, hardDeadline) - System.nanoTime() <= 0) {
        return null;
      }
      LockSupport.parkNanos(RECONNECT_POLL_NANOS);
    }
    return c;
  }

  /** Logged (at most once a minute while it lasts): the caller applies its on-failure policy. */
  private BackendUnavailableException unavailable(
      RedisFailure kind, String reason, Throwable cause) {
    if (kind.decidedByLocalShare() && kind != RedisFailure.CLOSED) {
      // (RECONNECTING too: a reconnect slow to come is Redis slow, not an outage; and LOST: the
      // local share decides it, and only a reconnect that then fails is one.)
      outage.decisionLate(kind, reason, TimeUnit.NANOSECONDS.toMillis(maxWaitNanos));
    } else if (kind != RedisFailure.RULE_ERROR && kind != RedisFailure.CLOSED) {
      outage.decisionFailed(reason);
    }
    return new BackendUnavailableException(
        "redis cannot decide: " + reason, cause, breaker.remainingOpenNanos(), kind);
  }

  private static List<Object> singleton(Object value) {
    List<Object> list = new ArrayList<>(1);
    list.add(value);
    return list;
  }

  /** A reply (or an error reply) came back: Redis and the connection are alive. */
  private void replied() {
    lastReplyNanos = System.nanoTime();
    if (hung) {
      hung = false;
    }
  }

  /**
   * The reply of a call sent at {@code sent}: within the soft deadline; past it, up to the hard
   * deadline unless the connection is known to be hung (see the class comment).
   */
  private <T> T await(RedisFuture<T> future, long sent, long softDeadline,
      long hardDeadline) {
    long deadline = softDeadline;
    boolean inBulkhead = false;
    try {
      while (true) {
        long left = deadline - System.nanoTime();
        try {
          if (future.isDone()) {
            return future.get(); // done already (perhaps just now, past a deadline): its value
          }
          if (left <= 0) {
            throw new TimeoutException();
          }
          return future.get(left, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
          if (future.isDone()) {
            continue; // completed just now: take its value (or failure)
          }
          if (deadline == softDeadline && future instanceof RedisBatcher.Reply) {
            // Still queued behind a window of late calls? Then it goes out now, not later.
            ((RedisBatcher.Reply) future).sendIfLate();
          }
          if (deadline == softDeadline && softDeadline != hardDeadline && !hung) {
            // Late, on a connection not known to be hung: wait on, if the bulkhead has room.
            // A slow Redis holds at most max-waiting-threads of the app's threads past their
            // timeout; the others are decided by their rule's local share now (the call was
            // sent: its count lands on Redis all the same).
            if (waiting.incrementAndGet() > maxWaitingThreads) {
              waiting.decrementAndGet();
              if (readSince(future, deadline)) {
                continue; // it was in the socket, unread: its value
              }
              throw new TimeoutRuntimeException(RedisFailure.SLOW,
                  TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent), maxWaitingThreads);
            }
            inBulkhead = true;
            deadline = hardDeadline;
            continue;
          }
          // Not cancelled: it was sent and Redis will run it; its count must land there.
          boolean listened = eventLoops.ranSince(deadline, listenBoundNanos());
          if (future.isDone()) {
            continue; // it was in the socket, unread until the loop ran: its value
          }
          if (!listened) {
            // This JVM's event loop has not read since the deadline: not Redis's silence.
            throw TimeoutRuntimeException.unread(
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent), listenBoundNanos());
          }
          boolean otherReplies = lastReplyNanos - sent > 0;
          if (!otherReplies && deadline == hardDeadline) {
            hung = true; // nothing at all back for a whole max-wait
          }
          throw new TimeoutRuntimeException(
              otherReplies ? RedisFailure.SLOW : RedisFailure.HUNG,
              TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent));
        }
      }
    } catch (InterruptedException e) {
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
    } finally {
      if (inBulkhead) {
        waiting.decrementAndGet();
      }
    }
  }

  /**
   * How long a request thread waits for the event loops to run ({@link EventLoopBarrier}) at each
   * of a decision's two checks (its reply late, then Redis silent): the {@code timeout}, but never
   * so long that a decision, {@code max-wait} and both waits together, holds its thread past 30 s
   * ({@link RedisSettings#MAX_MAX_WAIT_NANOS}, the most the agent holds any request). With the
   * defaults (50 ms, 1 s) the {@code timeout}.
   */
  private long listenBoundNanos() {
    return listenBoundNanos(timeoutNanos, maxWaitNanos);
  }

  static long listenBoundNanos(long timeoutNanos, long maxWaitNanos) {
    return Math.min(timeoutNanos,
        Math.max(0, (RedisSettings.MAX_MAX_WAIT_NANOS - maxWaitNanos) / 2));
  }

  /**
   * Whether {@code future}, not done at {@code deadline}, is done once the event loops have run
   * since then (bounded by the {@code timeout}, {@link EventLoopBarrier}): a reply that had come
   * and waited unread in the socket.
   */
  private boolean readSince(RedisFuture<?> future, long deadline) {
    eventLoops.ranSince(deadline, listenBoundNanos());
    return future.isDone();
  }

  /**
   * A decision that comes while the backend is still making its first connection (the first
   * requests after the application started) waits for it, within its own timeout, rather than
   * fall to the rule's failure policy for being early. Once that attempt has ended, nothing waits
   * here: a backend that lost its connection, or never made one, answers at once.
   */
  private void awaitFirstConnection(long deadline) {
    try {
      firstAttempt.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Sends one command, counted as outstanding until its reply (or its connection's failure) comes;
   * not sent when {@link #outstandingCap} commands are outstanding already. A decision's reply (an
   * error reply too) is noted as Redis answering ({@link #replied}) by the same callback: one per
   * command, run on the client's I/O thread before the waiting request thread is woken.
   */
  private <T> RedisFuture<T> send(java.util.function.Supplier<RedisFuture<T>> command) {
    return send(command, true);
  }

  /**
   * As {@link #send(java.util.function.Supplier)}; with {@code noteReply} false (a background
   * write's, a refund's or a partner's wait), its reply is not noted as Redis answering.
   */
  private <T> RedisFuture<T> send(java.util.function.Supplier<RedisFuture<T>> command,
      boolean noteReply) {
    int nowOutstanding = outstanding.incrementAndGet();
    if (nowOutstanding == 1) {
      busySince = System.nanoTime();
    }
    if (nowOutstanding > outstandingCap) {
      outstanding.decrementAndGet();
      throw new QueueFullException(outstandingCap);
    }
    RedisFuture<T> future;
    try {
      future = command.get();
    } catch (RuntimeException e) {
      outstanding.decrementAndGet();
      throw e;
    }
    if (noteReply) {
      future.whenComplete((value, failure) -> {
        outstanding.decrementAndGet();
        if (failure == null || failure instanceof RedisCommandExecutionException) {
          replied();
        }
      });
    } else {
      future.whenComplete((value, failure) -> outstanding.decrementAndGet());
    }
    return future;
  }

  /** Too many commands outstanding on the connection: {@link RedisFailure#BUSY}, not sent. */
  static final class QueueFullException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    QueueFullException(int cap) {
      super(cap + " commands already wait for late replies on the connection (7/8 of its request"
          + " queue)", null, false, false);
    }
  }

  /** No reply in time: {@link RedisFailure#SLOW} or {@link RedisFailure#HUNG}. */
  static final class TimeoutRuntimeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    final RedisFailure kind;

    /** Late, and {@code waiting} threads already wait past their timeout: not waited for. */
    TimeoutRuntimeException(RedisFailure kind, long waitedMillis, int waiting) {
      super("no reply after " + waitedMillis + " ms and " + waiting + " request threads already"
          + " wait for late replies (redis.max-waiting-threads)", null, false, false);
      this.kind = kind;
    }

    private TimeoutRuntimeException(String message) {
      super(message, null, false, false);
      this.kind = RedisFailure.SLOW;
    }

    /**
     * No reply read, and this JVM's event loop did not run within {@code boundNanos} of the
     * deadline: Redis may have answered (slow, not hung; {@link EventLoopBarrier}).
     */
    static TimeoutRuntimeException unread(long waitedMillis, long boundNanos) {
      return new TimeoutRuntimeException("no reply read after " + waitedMillis + " ms: this"
          + " JVM's redis event loop did not run within " + boundNanos / 1_000_000
          + " ms of the deadline (the host starved of CPU?)");
    }

    TimeoutRuntimeException(RedisFailure kind, long waitedMillis) {
      super(kind == RedisFailure.SLOW
              ? "no reply after " + waitedMillis + " ms while redis answered other calls"
              : "timed out: nothing back from redis after " + waitedMillis + " ms",
          null, false, false);
      this.kind = kind;
    }
  }

  /**
   * Closes the breaker when the connection is made again (a reconnect after a drop), and notes
   * when it was lost.
   */
  private final class BreakerOnConnection implements RedisConnectionStateListener {
    @Override
    public void onRedisDisconnected(RedisChannelHandler<?, ?> handler) {
      if (handler == connection) {
        // The drop itself, told once: dated from now, whatever a decision noticed before.
        disconnectedAt = System.nanoTime() | 1;
      }
    }

    @Override
    public void onRedisConnected(RedisChannelHandler<?, ?> handler, SocketAddress address) {
      // Only the backend's own connection: not the short ones made to look up a Sentinel master.
      if (!closed && connection != null && handler == connection) {
        noticeConnected();
        replied();
        breaker.close();
      }
    }
  }

  /**
   * Lettuce's delays between reconnect attempts: the first at once (a dropped connection to a live
   * server, such as a {@code CLIENT KILL} or an idle timeout, is back in a round trip, before a
   * request has to fall back), then 50 ms doubling up to 500 ms, so that a server that comes back
   * is found within half a second.
   */
  static final class ReconnectDelay extends Delay {
    @Override
    public Duration createDelay(long attempt) {
      if (attempt <= 1) {
        return Duration.ZERO;
      }
      return Duration.ofMillis(Math.min(500L, 50L << Math.min(attempt - 2, 4)));
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

  /**
   * Whether Redis answered within the last {@code nanos} or was not asked anything that long: a
   * call left without a reply for {@code nanos}, since the last reply or since calls began after
   * an idle spell, is Redis silent (an idle connection is not), once this JVM has listened: its
   * event loops have run a pass begun after the silence reached {@code nanos}, and still nothing
   * was read. A loop that has not run within the {@code timeout} (waited for here, {@link
   * EventLoopBarrier}) says the silence is this JVM's, not Redis's: not silent, for this decision
   * (a starved JVM's replies wait unread in the socket, and its share bet what the instances
   * answered in time had spent: BENCHMARKS.md section 7, h-stall).
   */
  public boolean answeredWithin(long nanos) {
    return hearing(nanos) != RedisHearing.SILENT;
  }

  /**
   * As {@link #answeredWithin}, telling a silence this JVM did not listen to ({@link
   * RedisHearing#NOT_LISTENING}: its event loop not run within the {@code timeout}) from Redis's.
   */
  RedisHearing hearing(long nanos) {
    long since = silentSince();
    if (readWithin(since, nanos)) {
      return RedisHearing.ANSWERING;
    }
    if (!eventLoops.ranSince(since + nanos, listenBoundNanos())) {
      return RedisHearing.NOT_LISTENING;
    }
    // The loop has run since: what it read meanwhile is what Redis said.
    return readWithin(silentSince(), nanos) ? RedisHearing.ANSWERING : RedisHearing.SILENT;
  }

  /** Since when Redis has answered nothing while asked (the last reply, or the calls' start). */
  private long silentSince() {
    return lastReplyNanos - busySince > 0 ? lastReplyNanos : busySince;
  }

  /**
   * Whether what was read says Redis answered within {@code nanos}: nothing outstanding, or silent
   * only since {@code since} ({@link #silentSince}) for less than that.
   */
  private boolean readWithin(long since, long nanos) {
    return outstanding.get() == 0 || System.nanoTime() - since < nanos;
  }

  /** The connection's event loops (for tests that occupy them). */
  EventLoopBarrier eventLoops() {
    return eventLoops;
  }

  /**
   * Whether the connection is down while the reconnect after a drop is under way and no attempt
   * has failed: decisions are made by their rules' local shares meanwhile ({@link
   * RedisFailure#RECONNECTING}), not by their {@code on-failure}.
   */
  public boolean reconnecting() {
    return !isConnected() && reconnectUnderWay();
  }

  /** Whether the connection is up now (Lettuce may be reconnecting). */
  public boolean isConnected() {
    StatefulConnection<String, String> conn = connection;
    return conn != null && conn.isOpen();
  }

  /**
   * Calls Redis did not answer since this backend was made: decisions, each made by its rule's
   * {@code on-failure} instead, and the instance heartbeat's.
   */
  public long callsNotAnswered() {
    return outage.failedTotal();
  }

  /**
   * Calls Redis was alive for but answered too late, or lost with a dropped connection, or not sent
   * while a reconnect was slow: each decision made by its rule's local share.
   */
  public long callsAnsweredLate() {
    return outage.lateTotal();
  }

  /**
   * Token-bucket and gcra decisions sent batched since this backend was made ({@link
   * RedisBatcher}); 0 when decisions are not batched (the default) and on a cluster.
   */
  public long batchedDecisions() {
    return batcher == null ? 0 : batcher.decisions();
  }

  /** The calls that carried {@link #batchedDecisions()}: fewer when decisions share calls. */
  public long batchCalls() {
    return batcher == null ? 0 : batcher.calls();
  }

  /** Whether decisions are failing now (since the first that failed, until one is made again). */
  public boolean decisionsFailing() {
    return outage.failing();
  }

  public CircuitBreaker breaker() {
    return breaker;
  }

  public RedisConnectionSettings settings() {
    return settings;
  }

  /** This backend's name to the scripts ({@link #callerId}). */
  String callerId() {
    return callerId;
  }

  ScheduledExecutorService scheduler() {
    return scheduler;
  }

  /** Nanoseconds until the circuit breaker lets a call try Redis again; 0 when it does now. */
  long breakerOpenForNanos() {
    return breaker.remainingOpenNanos();
  }

  /**
   * A reload changed only how long decisions wait ({@code timeout}, {@code max-wait}) or how many
   * may wait ({@code max-waiting-threads}): applied to this connection in place, so that every
   * count, the connection and the instance registration stay. {@code changed} must name the same
   * server as {@link #settings()}.
   */
  public void retime(RedisConnectionSettings changed) {
    this.timeoutNanos = changed.timeout().toNanos();
    this.maxWaitNanos = changed.maxWait().toNanos();
    this.maxWaitingThreads = changed.maxWaitingThreads();
    this.settings = changed;
  }

  /** Whether this backend was closed: its connection, its threads and its Lettuce resources. */
  public boolean isClosed() {
    return closed && scheduler.isTerminated();
  }

  /** Decisions inside {@link #eval} now. */
  int decisionsInFlight() {
    return inEval.get();
  }

  /** Request threads waiting for a late reply now (at most {@code max-waiting-threads}). */
  public int waitingThreads() {
    return waiting.get();
  }

  /** Commands sent and not answered yet. */
  public int outstandingCommands() {
    return outstanding.get();
  }

  /**
   * Closes this backend, which a reload has replaced, once the decisions that began on the old
   * rules have ended: none inside {@link #eval} after a short grace for those that had read the
   * old rules but not yet called (a decision that still comes after it is decided by its rule's
   * local share, {@link RedisFailure#CLOSED}). Never waits longer than {@code max-wait} and a
   * second in all; returns at once, the closing is done on a thread of its own.
   */
  public void closeAfterDrain(Runnable before) {
    Thread closer = new Thread(() -> {
      long start = System.nanoTime();
      long grace = TimeUnit.MILLISECONDS.toNanos(200);
      long bound = maxWaitNanos + TimeUnit.SECONDS.toNanos(1);
      while (System.nanoTime() - start < bound
          && (System.nanoTime() - start < grace || inEval.get() > 0)) {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
      }
      try {
        before.run();
      } catch (RuntimeException ignored) {
        // best effort: the backend is closed all the same
      }
      close();
    }, "tollgate-redis-retire-" + THREADS.incrementAndGet());
    closer.setDaemon(true);
    closer.start();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    firstAttemptEnded();
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
