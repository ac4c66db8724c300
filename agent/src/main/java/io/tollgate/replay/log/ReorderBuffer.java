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
 * <p>The buffer is bounded by a number of requests and an estimate of their bytes, whatever the
 * log's rate: a window of time alone held every request of a burst (a million lines stamped with
 * one second, all kept 5 s of log time, peaked at 685 MB; four million ran out of a 512 MB heap).
 * When either bound is reached, the oldest request is released before its window has passed,
 * counted in {@link #releasedEarly()}; a line that comes later with an older time is then late.
 *
 * <p>In-order requests, nearly all of them, go to a queue in O(1); only the out-of-order ones to a
 * heap.
 */
final class ReorderBuffer {

  private static final Comparator<LoggedRequest> TIME_THEN_LINE =
      Comparator.<LoggedRequest>comparingLong(r -> r.epochMillis)
          .thenComparingLong(r -> r.lineNumber);

  private final long windowMillis;
  private final int maxRequests;
  private final long maxBytes;
  private long bytes;
  private long releasedEarly;
  private final ArrayDeque<LoggedRequest> inOrder = new ArrayDeque<>();
  private final PriorityQueue<LoggedRequest> outOfOrder = new PriorityQueue<>(TIME_THEN_LINE);
  private long newest = Long.MIN_VALUE;
  private long lastReleased = Long.MIN_VALUE;
  private long late;

  ReorderBuffer(long windowMillis) {
    this(windowMillis, Integer.MAX_VALUE, Long.MAX_VALUE);
  }

  /** A window bounded by {@code maxRequests} requests and about {@code maxBytes} of them. */
  ReorderBuffer(long windowMillis, int maxRequests, long maxBytes) {
    this.windowMillis = Math.max(0, windowMillis);
    this.maxRequests = Math.max(1, maxRequests);
    this.maxBytes = Math.max(1, maxBytes);
  }

  /**
   * About what a request held here costs the heap: the object, its strings (one byte a character
   * for the Latin-1 text of logs, plus a header each) and its headers' map entries. The same for a
   * request when it comes in and when it goes, so the total stays exact to the estimate.
   */
  static long estimateBytes(LoggedRequest r) {
    long n = 80 + text(r.clientAddress) + text(r.method) + text(r.path) + text(r.query)
        + text(r.user);
    for (java.util.Map.Entry<String, String> h : r.headers.entrySet()) {
      n += 48 + text(h.getKey()) + text(h.getValue());
    }
    return n;
  }

  private static long text(String s) {
    return s == null ? 0 : 48 + s.length();
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
    bytes += estimateBytes(request);
  }

  /**
   * The oldest request if the window has passed it, or if the buffer is full (then counted in
   * {@link #releasedEarly}); else null.
   */
  LoggedRequest poll() {
    LoggedRequest head = peek();
    if (head == null) {
      return null;
    }
    if (head.epochMillis > newest - windowMillis) {
      if (size() <= maxRequests && bytes <= maxBytes) {
        return null;
      }
      releasedEarly++;
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
    bytes -= estimateBytes(next);
    return next;
  }

  /** Requests released before their window had passed, because the buffer was full. */
  long releasedEarly() {
    return releasedEarly;
  }

  /** The estimated bytes of the requests held now. */
  long bytes() {
    return bytes;
  }

  /** Requests released later than the window allowed, with the time before them. */
  long late() {
    return late;
  }

  int size() {
    return inOrder.size() + outOfOrder.size();
  }
}
