package io.tollgate.replay.log;

import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.PriorityQueue;

/**
 * Puts the requests of one file back in time order. Servers write a line when a request
 * completes, stamped with the time it started (Apache {@code %t}, Tomcat) or ended (nginx), so a
 * log is ordered only roughly: a slow request's line comes after faster ones that started later.
 * Requests are held until the newest time seen is {@code windowMillis} past theirs, then released
 * in order of time (and of line among equal times).
 *
 * <p>A request later than the window allows (older than one already released) cannot take its
 * place any more: it is released at once with the time of the request released before it, so that
 * the replay's clock never goes backwards, and counted in {@link #late()}.
 *
 * <p>In-order requests, nearly all of them, go to a queue in O(1); only the out-of-order ones to a
 * heap.
 */
final class ReorderBuffer {

  private static final Comparator<LoggedRequest> TIME_THEN_LINE =
      Comparator.<LoggedRequest>comparingLong(r -> r.epochMillis)
          .thenComparingLong(r -> r.lineNumber);

  private final long windowMillis;
  private final ArrayDeque<LoggedRequest> inOrder = new ArrayDeque<>();
  private final PriorityQueue<LoggedRequest> outOfOrder = new PriorityQueue<>(TIME_THEN_LINE);
  private long newest = Long.MIN_VALUE;
  private long lastReleased = Long.MIN_VALUE;
  private long late;

  ReorderBuffer(long windowMillis) {
    this.windowMillis = Math.max(0, windowMillis);
  }

  void add(LoggedRequest request) {
    if (request.epochMillis < lastReleased) {
      late++;
      request = new LoggedRequest(lastReleased, request.clientAddress, request.method,
          request.path, request.query, request.status, request.user, request.headers,
          request.source, request.lineNumber);
    }
    LoggedRequest tail = inOrder.peekLast();
    if (tail == null || tail.epochMillis <= request.epochMillis) {
      inOrder.addLast(request);
    } else {
      outOfOrder.add(request);
    }
    if (request.epochMillis > newest) {
      newest = request.epochMillis;
    }
  }

  /** The oldest request if the window has passed it, else null. */
  LoggedRequest poll() {
    LoggedRequest head = peek();
    if (head == null || head.epochMillis > newest - windowMillis) {
      return null;
    }
    return release();
  }

  /** The oldest request, window or not (at the end of the file), or null when empty. */
  LoggedRequest drain() {
    return peek() == null ? null : release();
  }

  private LoggedRequest peek() {
    LoggedRequest a = inOrder.peekFirst();
    LoggedRequest b = outOfOrder.peek();
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    return TIME_THEN_LINE.compare(a, b) <= 0 ? a : b;
  }

  private LoggedRequest release() {
    LoggedRequest a = inOrder.peekFirst();
    LoggedRequest b = outOfOrder.peek();
    LoggedRequest next =
        b == null || (a != null && TIME_THEN_LINE.compare(a, b) <= 0)
            ? inOrder.pollFirst()
            : outOfOrder.poll();
    lastReleased = next.epochMillis;
    return next;
  }

  /** Requests released later than the window allowed, with the time before them. */
  long late() {
    return late;
  }

  int size() {
    return inOrder.size() + outOfOrder.size();
  }
}
