package io.tollgate.instrumentation.outbound;

/**
 * Tells the threads that must never be parked: Reactor's, which carry its marker interface {@code
 * reactor.core.scheduler.NonBlocking} (its parallel and single schedulers, and Reactor Netty's
 * event loops, which serve a WebFlux app's requests and its {@code WebClient}'s connections). An
 * outbound call made there, as a {@code WebClient} call subscribed on one is, fails fast when over
 * its limit instead of waiting its turn: a parked event loop would stall every connection it
 * serves, which is worse for the app than the call's failure.
 */
final class NonBlockingThreads {

  /**
   * The marker's name without its package's first word: the agent's build relocates string
   * constants that start with {@code reactor} (it shades a Reactor of its own for Lettuce). The
   * relocated marker of that copy, on the agent's own Redis threads, matches too, as it should.
   */
  private static final String MARKER_SUFFIX = ".core.scheduler.NonBlocking";

  private static final ClassValue<Boolean> NON_BLOCKING = new ClassValue<Boolean>() {
    @Override
    protected Boolean computeValue(Class<?> type) {
      return marked(type);
    }
  };

  private NonBlockingThreads() {}

  /** Whether the calling thread must never be parked. */
  static boolean current() {
    return NON_BLOCKING.get(Thread.currentThread().getClass());
  }

  private static boolean marked(Class<?> type) {
    for (Class<?> c = type; c != null && c != Thread.class; c = c.getSuperclass()) {
      for (Class<?> marker : c.getInterfaces()) {
        if (marker.getName().endsWith(MARKER_SUFFIX) || marked(marker)) {
          return true;
        }
      }
    }
    return false;
  }
}
