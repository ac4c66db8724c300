package io.tollgate.stores.redis;

import reactor.util.Logger;

/**
 * Where the (relocated) Reactor that Lettuce uses writes its log lines: the same as Lettuce's and
 * Netty's ({@link RedisClientLogging}), warnings and errors only, each message pattern at most once
 * a minute, with the agent's prefix and to its log file. Without it Reactor would print to the
 * application's standard output and error with its own console logger.
 */
final class ReactorLogging implements Logger {

  private final String name;

  ReactorLogging(String name) {
    this.name = name;
  }

  /** Routes Reactor's loggers here; call before Lettuce first uses Reactor. */
  static void install() {
    // Loggers' own set-up picks its console logger (SLF4J is not visible to the agent's loader,
    // and no JDK fallback is asked for), so touching it never sets up java.util.logging.
    reactor.util.Loggers.useCustomLoggers(ReactorLogging::new);
  }

  private void emit(String level, String pattern, Object... args) {
    RedisClientLogging.emit(level, name, pattern, args);
  }

  @Override
  public String getName() {
    return name;
  }

  @Override
  public boolean isTraceEnabled() {
    return false;
  }

  @Override
  public void trace(String msg) {}

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
  public void info(String format, Object... arguments) {}

  @Override
  public void info(String msg, Throwable t) {}

  @Override
  public boolean isWarnEnabled() {
    return true;
  }

  @Override
  public void warn(String msg) {
    emit("warning", msg);
  }

  @Override
  public void warn(String format, Object... arguments) {
    emit("warning", format, arguments);
  }

  @Override
  public void warn(String msg, Throwable t) {
    emit("warning", msg, t);
  }

  @Override
  public boolean isErrorEnabled() {
    return true;
  }

  @Override
  public void error(String msg) {
    emit("error", msg);
  }

  @Override
  public void error(String format, Object... arguments) {
    emit("error", format, arguments);
  }

  @Override
  public void error(String msg, Throwable t) {
    emit("error", msg, t);
  }
}
