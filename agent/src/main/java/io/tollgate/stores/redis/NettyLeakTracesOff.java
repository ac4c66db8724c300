package io.tollgate.stores.redis;

import io.netty.util.ResourceLeakDetector;

/**
 * Turns off Netty's buffer leak detector in the Redis client's own Netty, unless asked for.
 *
 * <p>By default Netty samples one buffer allocation in 128 and records a stack trace for it (a
 * {@code Throwable}) and for each later use of that buffer: a debugging aid for code that handles
 * Netty buffers itself, which Tollgate does not (Lettuce allocates and releases them). The end to
 * end profile of a rule on Redis found those traces on the client's I/O thread, about 1% of the
 * server's CPU. The shade plugin relocates the property names with Netty's packages, in this class
 * as in Netty's, so this reaches only Tollgate's copy of Netty; setting {@code
 * io.netty.leakDetection.level} (relocated) keeps the detector as set.
 */
final class NettyLeakTracesOff {

  private NettyLeakTracesOff() {}

  /** Call before the client's first connection. Leaves an explicit setting alone. */
  static void unlessAsked() {
    if (System.getProperty("io.netty.leakDetection.level") == null
        && System.getProperty("io.netty.leakDetectionLevel") == null) {
      ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
    }
  }
}
