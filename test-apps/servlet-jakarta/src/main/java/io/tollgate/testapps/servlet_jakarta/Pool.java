package io.tollgate.testapps.servlet_jakarta;

import java.io.IOException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * A bounded resource for the adaptive-concurrency benchmark (benchmarks/run-adaptive.sh): a pool of
 * {@code testapp.pool.size} "connections" (default 8), each use holding one for
 * {@code testapp.pool.hold-ms} (default 20 ms) times the current slow-down factor, so a capacity
 * near size / hold (400 requests/s by default). A request that waits longer than
 * {@code testapp.pool.timeout-ms} (default 1000) for a connection is answered 503 with the header
 * {@code X-Pool-Timeout: true}, as a real pool times out. The wait is FIFO (a fair semaphore).
 *
 * <p>{@code GET /api/pool} uses one connection and answers 200 {@code pool}. {@code POST
 * /admin/pool?slowdown=F} makes every later use F times slower (F = 1 restores it); {@code GET
 * /admin/pool} reports the pool's state, and the Netflix filter's current limit when it is on.
 */
final class Pool {
    static final String PATH = "/api/pool";
    static final String ADMIN_PATH = "/admin/pool";

    private static final int SIZE = Integer.getInteger("testapp.pool.size", 8);
    private static final long HOLD_NANOS = TimeUnit.MILLISECONDS.toNanos(Long.getLong("testapp.pool.hold-ms", 20));
    private static final long TIMEOUT_MS = Long.getLong("testapp.pool.timeout-ms", 1000);
    private static final Semaphore CONNECTIONS = new Semaphore(SIZE, true);

    /** The hold time's multiplier: 1.0 until POST /admin/pool changes it. */
    private static volatile double slowdown = 1.0;
    private static volatile long served;
    private static volatile long timedOut;
    /** The Netflix filter's limit, when that filter is on (for the benchmark's settle time). */
    static volatile IntSupplier netflixLimit;

    private Pool() {
    }

    /** GET /api/pool. */
    static final class Resource extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            boolean acquired;
            try {
                acquired = CONNECTIONS.tryAcquire(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                acquired = false;
            }
            if (!acquired) {
                synchronized (Pool.class) {
                    timedOut++;
                }
                resp.setHeader("X-Pool-Timeout", "true");
                resp.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
                Servlets.text(resp, "pool timeout");
                return;
            }
            try {
                hold((long) (HOLD_NANOS * slowdown));
            } finally {
                CONNECTIONS.release();
            }
            synchronized (Pool.class) {
                served++;
            }
            Servlets.text(resp, "pool");
        }

        private static void hold(long nanos) {
            long end = System.nanoTime() + nanos;
            for (long left = nanos; left > 0; left = end - System.nanoTime()) {
                LockSupport.parkNanos(left);
            }
        }
    }

    /** GET /admin/pool: the state; POST /admin/pool?slowdown=F: the slow-down factor. */
    static final class Admin extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            IntSupplier limit = netflixLimit;
            Servlets.text(resp, "size " + SIZE + " hold-ms " + HOLD_NANOS / 1e6 + " timeout-ms " + TIMEOUT_MS
                    + " slowdown " + slowdown + " in-use " + (SIZE - CONNECTIONS.availablePermits())
                    + " waiting " + CONNECTIONS.getQueueLength() + " served " + served + " timed-out " + timedOut
                    + (limit == null ? "" : " netflix-limit " + limit.getAsInt()));
        }

        @Override
        protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            String value = req.getParameter("slowdown");
            double factor;
            try {
                factor = value == null ? Double.NaN : Double.parseDouble(value);
            } catch (NumberFormatException e) {
                factor = Double.NaN;
            }
            if (!(factor > 0 && factor <= 100)) {
                resp.setStatus(HttpServletResponse.SC_BAD_REQUEST);
                Servlets.text(resp, "slowdown must be a number in (0, 100]");
                return;
            }
            slowdown = factor;
            Servlets.text(resp, "slowdown " + factor);
        }
    }
}
