package io.tollgate.stores.redis;

import io.netty.util.internal.logging.AbstractInternalLogger;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.tollgate.logging.AgentLog;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

/**
 * Where the (relocated) Lettuce and Netty write their log lines: to standard error with the
 * {@code [tollgate]} prefix, warnings and errors only, each message pattern at most once a minute.
 * Never through the application's logging framework, and never a flood during an outage (Lettuce
 * warns on every failed reconnect).
 */
final class RedisClientLogging extends InternalLoggerFactory {

  private static final long QUIET_NANOS = TimeUnit.MINUTES.toNanos(1);
  private static final ConcurrentMap<String, Long> LAST_LOGGED = new ConcurrentHashMap<>();
  private static volatile boolean installed;

  private RedisClientLogging() {}

  /** Routes Lettuce's and Netty's loggers here; call before they are first used. */
  static void install() {
    if (!installed) {
      synchronized (RedisClientLogging.class) {
        if (!installed) {
          InternalLoggerFactory.setDefaultFactory(new RedisClientLogging());
          ReactorLogging.install();
          installed = true;
        }
      }
    }
  }

  @Override
  protected InternalLogger newInstance(String name) {
    return new Logger(name);
  }

  /**
   * Writes one warning or error of {@code logger}: {@code pattern} with its {} filled from
   * {@code args} (a trailing Throwable is the cause), unless the same pattern was written less
   * than a minute ago, in which case nothing is even formatted. Netty's and Reactor's loggers
   * both end here.
   */
  static void emit(String level, String logger, String pattern, Object... args) {
    String key = logger + '|' + pattern;
    long now = System.nanoTime();
    Long last = LAST_LOGGED.get(key);
    if (last != null && now - last < QUIET_NANOS) {
      return;
    }
    if (LAST_LOGGED.size() > 1_000) {
      LAST_LOGGED.clear();
    }
    LAST_LOGGED.put(key, now);
    String message = format(pattern, args);
    Throwable error = cause(args);
    String shortName = logger.substring(logger.lastIndexOf('.') + 1);
    StringBuilder line =
        new StringBuilder("redis client ").append(level).append(' ').append(shortName)
            .append(": ").append(message);
    if (error != null) {
      line.append(" (").append(error.getClass().getSimpleName());
      if (error.getMessage() != null) {
        line.append(": ").append(error.getMessage());
      }
      line.append(')');
    }
    AgentLog.info(readable(line.toString())); // with the agent's prefix, and to its log file too
  }

  /**
   * Without the JDK's rendering of an address not looked up yet ({@code localhost/<unresolved>:6379}
   * from {@code InetSocketAddress.toString()}), which reads like a failed lookup in a line about an
   * outage: {@code localhost:6379}.
   */
  static String readable(String line) {
    return line.replace("/<unresolved>:", ":");
  }

  /** Replaces each {} in {@code pattern} with the next argument; a trailing Throwable is the cause. */
  static String format(String pattern, Object... args) {
    if (pattern == null) {
      return "";
    }
    StringBuilder out = new StringBuilder(pattern.length() + 32);
    int from = 0;
    int arg = 0;
    int limit = args.length;
    if (limit > 0 && args[limit - 1] instanceof Throwable) {
      limit--;
    }
    while (true) {
      int at = pattern.indexOf("{}", from);
      if (at < 0 || arg >= limit) {
        out.append(pattern, from, pattern.length());
        return out.toString();
      }
      out.append(pattern, from, at).append(args[arg++]);
      from = at + 2;
    }
  }

  static Throwable cause(Object... args) {
    return args.length > 0 && args[args.length - 1] instanceof Throwable
        ? (Throwable) args[args.length - 1]
        : null;
  }

  private static final class Logger extends AbstractInternalLogger {

    private static final long serialVersionUID = 1L;

    Logger(String name) {
      super(name);
    }

    private void warnOrError(String level, String pattern, Object... args) {
      emit(level, name(), pattern, args);
    }

    @Override
    public boolean isTraceEnabled() {
      return false;
    }

    @Override
    public void trace(String msg) {}

    @Override
    public void trace(String format, Object arg) {}

    @Override
    public void trace(String format, Object argA, Object argB) {}

    @Override
    public void trace(String format, Object... arguments) {}

    @Override
    public void trace(String msg, Throwable t) {}

    @Override
    public boolean isDebugEnabled() {
      return false;
    }

    @Override
    public void debug(String msg) {}

    @Override
    public void debug(String format, Object arg) {}

    @Override
    public void debug(String format, Object argA, Object argB) {}

    @Override
    public void debug(String format, Object... arguments) {}

    @Override
    public void debug(String msg, Throwable t) {}

    @Override
    public boolean isInfoEnabled() {
      return false;
    }

    @Override
    public void info(String msg) {}

    @Override
    public void info(String format, Object arg) {}

    @Override
    public void info(String format, Object argA, Object argB) {}

    @Override
    public void info(String format, Object... arguments) {}

    @Override
    public void info(String msg, Throwable t) {}

    @Override
    public boolean isWarnEnabled() {
      return true;
    }

    @Override
    public void warn(String msg) {
      warnOrError("warning", msg);
    }

    @Override
    public void warn(String format, Object arg) {
      warnOrError("warning", format, arg);
    }

    @Override
    public void warn(String format, Object... arguments) {
      warnOrError("warning", format, arguments);
    }

    @Override
    public void warn(String format, Object argA, Object argB) {
      warnOrError("warning", format, argA, argB);
    }

    @Override
    public void warn(String msg, Throwable t) {
      warnOrError("warning", msg, t);
    }

    @Override
    public boolean isErrorEnabled() {
      return true;
    }

    @Override
    public void error(String msg) {
      warnOrError("error", msg);
    }

    @Override
    public void error(String format, Object arg) {
      warnOrError("error", format, arg);
    }

    @Override
    public void error(String format, Object argA, Object argB) {
      warnOrError("error", format, argA, argB);
    }

    @Override
    public void error(String format, Object... arguments) {
      warnOrError("error", format, arguments);
    }

    @Override
    public void error(String msg, Throwable t) {
      warnOrError("error", msg, t);
    }
  }
}
