package io.tollgate.stores.redis;

import io.tollgate.logging.AgentLog;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * How many agents share the Redis: each announces itself every {@code heartbeat} in a sorted set
 * ({@code instances.lua}, scored with Redis TIME), and counts the members heard from within three
 * heartbeats. The last count holds while Redis is down, which is when {@code on-failure: local}
 * needs it to divide the limit.
 *
 * <p>An instance leaves the set when its backend is closed (a reload away from Redis) and when
 * its JVM exits normally (a shutdown hook, see {@link #leaveAtExit}): otherwise the others would
 * go on dividing their local share by it for three heartbeats (15 s by default), which is what
 * an instance that dies without exiting (a {@code kill -9}, a lost host) still costs them.
 */
public final class InstanceRegistry implements AutoCloseable {

  private final RedisBackend backend;
  private final String key;
  private final String instanceId;
  private final long ttlMillis;
  private final ScheduledFuture<?> task;
  /** Leaves the set at the JVM's exit; removed from the runtime when this registry is closed. */
  private final Thread exitHook;
  private volatile int liveInstances;
  /** Whether a beat has counted the instances (the first count is not a change worth a line). */
  private volatile boolean beaten;

  public InstanceRegistry(RedisBackend backend) {
    this.backend = backend;
    RedisConnectionSettings settings = backend.settings();
    this.key = RedisKeys.instancesKey(settings.instanceGroup());
    this.instanceId = UUID.randomUUID().toString();
    Duration heartbeat = settings.heartbeat();
    this.ttlMillis = Math.max(1, heartbeat.toMillis() * 3);
    this.liveInstances = settings.fallbackInstances();
    long every = Math.max(1, heartbeat.toMillis());
    // The first beat once the first connection attempt has ended: sent before, it could only
    // fail ("not connected") and be logged as an outage at every start.
    backend.afterFirstAttempt(this::beat);
    this.task =
        backend.scheduler().scheduleWithFixedDelay(this::beat, every, every, TimeUnit.MILLISECONDS);
    this.exitHook = new Thread(this::leaveAtExit, "tollgate-redis-leave");
    try {
      Runtime.getRuntime().addShutdownHook(exitHook);
    } catch (IllegalStateException | SecurityException e) {
      // The JVM is exiting already, or may not be given hooks: the entry drops out by its TTL.
    }
  }

  /**
   * At the JVM's exit: the heartbeat stops and this instance's leave is sent. Waits for its reply
   * at most the backend's {@code timeout} (never more than a second), so that a slow or frozen
   * Redis cannot hold the exit; a leave sent is enough, as Redis runs it when it comes, late reply
   * or not. Never throws: the host's shutdown goes on whatever Redis does.
   */
  void leaveAtExit() {
    try {
      task.cancel(false);
      if (!backend.firstAttemptHasEnded()) {
        return;
      }
      CountDownLatch answered = new CountDownLatch(1);
      backend.evalInBackground(RedisScript.INSTANCES, key, scriptArgs("1"),
          (reply, failure) -> answered.countDown());
      long waitMillis = Math.min(1000, Math.max(1, backend.settings().timeout().toMillis()));
      answered.await(waitMillis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      // Redis down or the client closing: the entry drops out by its TTL.
    }
  }

  /** {@code instances.lua}'s arguments: this instance, its TTL, and "1" to leave or "0" to beat. */
  private String[] scriptArgs(String leaving) {
    return new String[] {instanceId, Long.toString(ttlMillis), leaving};
  }

  /** Announces this instance now; returns the count (unchanged when Redis does not answer). */
  public int beat() {
    return call("0");
  }

  private int call(String leaving) {
    if (!backend.firstAttemptHasEnded()) {
      return liveInstances; // still connecting at start: not an outage to report
    }
    try {
      List<Object> reply = backend.eval(RedisScript.INSTANCES, key, scriptArgs(leaving));
      Object count = reply.isEmpty() ? null : reply.get(0);
      if (count instanceof Long && (Long) count >= 1 && "0".equals(leaving)) {
        int now = (int) Math.min(Integer.MAX_VALUE, (Long) count);
        int before = liveInstances;
        liveInstances = now;
        if (now != before && beaten) {
          // Said because each rule's local share is divided anew: what a share decides changes.
          AgentLog.info("redis: " + now + " instance" + (now == 1 ? "" : "s") + " share the"
              + " limits now (" + before + " before); each rule's local share is divided anew,"
              + " keeping what each key had used of it");
        }
        beaten = true;
      }
    } catch (RuntimeException e) {
      // Redis down: the last count holds.
    }
    return liveInstances;
  }

  /** The last count of live instances, this one included; at least 1. */
  public int liveInstances() {
    return liveInstances;
  }

  /** The shutdown hook that leaves at the JVM's exit (tests: that close takes it away). */
  Thread exitHook() {
    return exitHook;
  }

  public String instanceId() {
    return instanceId;
  }

  @Override
  public void close() {
    task.cancel(false);
    try {
      Runtime.getRuntime().removeShutdownHook(exitHook);
    } catch (IllegalStateException | SecurityException e) {
      // Closed during the exit itself: the hook runs too, and a second leave is harmless.
    }
    call("1");
  }
}
