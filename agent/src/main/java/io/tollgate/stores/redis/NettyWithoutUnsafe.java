package io.tollgate.stores.redis;

/**
 * Keeps the Redis client's Netty off {@code sun.misc.Unsafe} on JDKs that warn about it.
 *
 * <p>From JDK 24, the first use of {@code sun.misc.Unsafe}'s memory access prints a block of
 * "terminally deprecated method" warnings on standard error, naming Netty and asking to report it
 * (JEP 498), in an application that never asked for either. Netty runs without Unsafe when
 * {@code io.netty.noUnsafe} is set; for the few buffers of a Redis client that costs nothing
 * measurable. The shade plugin relocates the property's name with Netty's packages, in this class
 * as in Netty's, so this setting reaches only Tollgate's copy of Netty, never the application's.
 */
final class NettyWithoutUnsafe {

  private static final String PROPERTY = "io.netty.noUnsafe";

  private NettyWithoutUnsafe() {}

  /** Call before Netty's first use. Leaves an explicit setting alone. */
  static void onJdksThatWarn() {
    if (Runtime.version().feature() >= 24 && System.getProperty(PROPERTY) == null) {
      System.setProperty(PROPERTY, "true");
    }
  }
}
