package io.tollgate.stores.redis;

import io.lettuce.core.resource.NettyCustomizer;
import io.netty.channel.Channel;
import io.netty.handler.flush.FlushConsolidationHandler;

/**
 * Sends the commands that request threads hand to the Redis client's I/O thread in one socket
 * write when several are waiting, instead of one write each.
 *
 * <p>Lettuce writes and flushes every command on its own: a decision's {@code EVALSHA} is a task
 * for the connection's event loop, and each task ends in a {@code write} system call (on loopback
 * that call also runs Redis's side of TCP). Under load, many request threads queue their commands
 * while the loop is busy; with this handler the loop writes all the commands it has run so far and
 * flushes once, after them, in the same pass ({@link FlushConsolidationHandler} with {@code
 * consolidateWhenNoReadInProgress}; while it reads replies, at the end of the read). No command
 * waits for another to come: the flush is the next task of the loop, never a timer, so a lone
 * command goes out as soon as before, and a command is never held back for a later one. At most
 * {@link #MAX_COMMANDS_PER_FLUSH} commands go out in one write.
 */
final class FlushesTogether implements NettyCustomizer {

  /** A bound on one write's commands, so that a long queue is not all held to its end. */
  static final int MAX_COMMANDS_PER_FLUSH = 64;

  static final String HANDLER_NAME = "tollgate-flushes-together";

  @Override
  public void afterChannelInitialized(Channel channel) {
    // First in the pipeline (next to the socket): it sees every flush, and every read's end.
    channel.pipeline().addFirst(HANDLER_NAME,
        new FlushConsolidationHandler(MAX_COMMANDS_PER_FLUSH, true));
  }
}
