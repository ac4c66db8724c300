package io.tollgate.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An open-loop HTTP load generator for the adaptive-concurrency benchmark
 * (benchmarks/run-adaptive.sh), in the manner of wrk2: requests are due at fixed times (phase start +
 * i / rate) whatever the server does, and each one's latency is measured from the time it was due,
 * not from when a connection was free to send it, so a server that stalls is charged for every
 * request it held up (no coordinated omission).
 *
 * <p>A scheduler thread hands each request to the I/O thread when it is due; the I/O thread, with one
 * NIO selector, speaks HTTP/1.1 with keep-alive on at most {@code --connections}
 * sockets, one request at a time on each (no pipelining). A request due while every connection is
 * busy waits in the generator, and its clock runs. A request not sent {@code --timeout-ms} after it
 * was due is given up, and one answered later than that counts as a timeout whatever its status.
 *
 * <p>Each response is one of: ok (2xx), refused (429, or 503 without {@code X-Pool-Timeout}: a
 * limiter's refusal), pool-timeout (503 with {@code X-Pool-Timeout: true}: the app's pool gave up
 * waiting), error (any other status, or a broken connection) or timeout. Per second of completion
 * and per phase it reports counts, goodput (ok per second) and latency percentiles of ok responses
 * and of refusals separately, in a log-linear histogram of microseconds (1/32 relative precision).
 *
 * <p>Every second, optionally, it fetches {@code --scrape URL} and records the first group of
 * {@code --scrape-regex} in the body (a limiter's current limit). {@code --hook PHASE:SECONDS:METHOD:URL}
 * calls URL that many seconds into the phase (the slow-down switch); the phase's settle times are
 * counted from it. See BENCHMARKS.md, "Adaptive concurrency", for the definition of settled.
 *
 * <pre>
 * java -cp benchmarks.jar io.tollgate.benchmarks.OpenLoopLoad --url http://127.0.0.1:18092/api/pool \
 *   --phases warm:400:15,1x:400:20,2x:800:20,4x:1600:20 --out /tmp/run
 * </pre>
 */
public final class OpenLoopLoad {

    // ---- a log-linear histogram of microseconds ----

    /** Buckets: exact below 64 µs, then 32 per power of two (about 3% wide). */
    static final class Histogram {
        static final int SUB = 32;
        static final int BUCKETS = 2 * SUB + SUB * 40;
        final long[] counts = new long[BUCKETS];
        long total;
        long max;

        static int index(long micros) {
            long v = Math.max(0, micros);
            if (v < 2 * SUB) {
                return (int) v;
            }
            int magnitude = 63 - Long.numberOfLeadingZeros(v); // >= 6
            int shift = magnitude - 5;
            int sub = (int) (v >>> shift) - SUB; // 0..31
            return Math.min(BUCKETS - 1, 2 * SUB + (magnitude - 6) * SUB + sub);
        }

        /** The largest value of a bucket. */
        static long upper(int index) {
            if (index < 2 * SUB) {
                return index;
            }
            int magnitude = (index - 2 * SUB) / SUB + 6;
            int sub = (index - 2 * SUB) % SUB;
            int shift = magnitude - 5;
            return ((long) (SUB + sub + 1) << shift) - 1;
        }

        void record(long micros) {
            counts[index(micros)]++;
            total++;
            max = Math.max(max, micros);
        }

        void add(Histogram other) {
            for (int i = 0; i < BUCKETS; i++) {
                counts[i] += other.counts[i];
            }
            total += other.total;
            max = Math.max(max, other.max);
        }

        /** The value at quantile q (0..1) in ms, NaN when empty. */
        double percentileMs(double q) {
            if (total == 0) {
                return Double.NaN;
            }
            long rank = Math.max(1, (long) Math.ceil(q * total));
            long seen = 0;
            for (int i = 0; i < BUCKETS; i++) {
                seen += counts[i];
                if (seen >= rank) {
                    return Math.min(upper(i), max) / 1000.0;
                }
            }
            return max / 1000.0;
        }
    }

    // ---- per-second tallies ----

    static final int OK = 0;
    static final int REFUSED = 1;
    static final int POOL_TIMEOUT = 2;
    static final int ERROR = 3;
    static final int TIMEOUT = 4;
    static final String[] OUTCOMES = {"ok", "refused", "pool_timeout", "error", "timeout"};

    static final class Second {
        long due;
        long sent;
        final long[] outcomes = new long[OUTCOMES.length];
        final Histogram ok = new Histogram();
        final Histogram refused = new Histogram();
        final Histogram poolTimeout = new Histogram();
        volatile double scraped = Double.NaN;
    }

    record Phase(String name, double rate, int seconds) {
    }

    record Hook(String phase, double at, String method, String url) {
    }

    // ---- connections ----

    /** One request due at a time (ns on System.nanoTime's clock). */
    static final class Request {
        final long due;
        long sentAt;

        Request(long due) {
            this.due = due;
        }
    }

    static final class Connection {
        final SocketChannel channel;
        final SelectionKey key;
        boolean connected;
        Request inFlight;
        ByteBuffer out;
        byte[] in = new byte[4096];
        int inLength;

        Connection(SocketChannel channel, SelectionKey key) {
            this.channel = channel;
            this.key = key;
        }
    }

    private final InetSocketAddress address;
    private final byte[] requestBytes;
    private final List<Phase> phases;
    private final List<Hook> hooks;
    private final int maxConnections;
    private final long timeoutNanos;
    private final Second[] seconds;
    private final Selector selector;
    private final ArrayDeque<Request> waiting = new ArrayDeque<>();
    private final ConcurrentLinkedQueue<Long> dueQueue = new ConcurrentLinkedQueue<>();
    private volatile boolean scheduled;
    private final ArrayDeque<Connection> idle = new ArrayDeque<>();
    private final List<Connection> open = new ArrayList<>();
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(64 * 1024);
    private long start;
    private long connectsMade;
    private final List<String> hookLog = new ArrayList<>();
    private final Map<String, Double> hookTimes = new HashMap<>();

    OpenLoopLoad(URI url, List<Phase> phases, List<Hook> hooks, int maxConnections, long timeoutMs)
            throws IOException {
        int port = url.getPort() < 0 ? 80 : url.getPort();
        this.address = new InetSocketAddress(url.getHost(), port);
        String target = url.getRawPath() + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery());
        this.requestBytes = ("GET " + target + " HTTP/1.1\r\nHost: " + url.getHost() + ":" + port
                + "\r\nUser-Agent: tollgate-open-loop\r\nAccept: */*\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        this.phases = phases;
        this.hooks = hooks;
        this.maxConnections = maxConnections;
        this.timeoutNanos = timeoutMs * 1_000_000L;
        int total = phases.stream().mapToInt(Phase::seconds).sum() + (int) Math.ceil(timeoutMs / 1000.0) + 2;
        this.seconds = new Second[total];
        for (int i = 0; i < total; i++) {
            seconds[i] = new Second();
        }
        this.selector = Selector.open();
    }

    private Second secondAt(long nanos) {
        int i = (int) ((nanos - start) / 1_000_000_000L);
        return seconds[Math.max(0, Math.min(seconds.length - 1, i))];
    }

    void run() throws IOException {
        start = System.nanoTime();
        long phaseStart = start;
        List<long[]> schedule = new ArrayList<>(); // per phase: {start ns, count, interval ns * 1000}
        for (Phase p : phases) {
            long count = Math.round(p.rate() * p.seconds());
            schedule.add(new long[] {phaseStart, count});
            phaseStart += p.seconds() * 1_000_000_000L;
        }
        long end = phaseStart;
        startHooks();
        Thread scraper = startScraper(end);
        Thread scheduler = new Thread(() -> {
            for (int pi = 0; pi < phases.size(); pi++) {
                long[] s = schedule.get(pi);
                double interval = 1e9 / phases.get(pi).rate();
                for (long i = 0; i < s[1]; i++) {
                    long due = s[0] + (long) (i * interval);
                    for (long left; (left = due - System.nanoTime()) > 0;) {
                        LockSupport.parkNanos(left);
                    }
                    due(due);
                }
            }
            scheduled = true;
            selector.wakeup();
        }, "scheduler");
        scheduler.setDaemon(true);
        scheduler.start();
        while (true) {
            long now = System.nanoTime();
            for (Long due; (due = dueQueue.poll()) != null;) {
                secondAt(due).due++;
                waiting.addLast(new Request(due));
            }
            expire(now);
            dispatch(now);
            if (scheduled && dueQueue.isEmpty() && waiting.isEmpty() && inFlight() == 0) {
                break;
            }
            if (now > end + timeoutNanos + 1_000_000_000L) {
                break; // bounded in time whatever happens: the rest count as timeouts
            }
            selector.select(100);
            Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
            while (keys.hasNext()) {
                SelectionKey key = keys.next();
                keys.remove();
                Connection c = (Connection) key.attachment();
                try {
                    if (key.isValid() && key.isConnectable()) {
                        finishConnect(c);
                    }
                    if (key.isValid() && key.isWritable()) {
                        write(c);
                    }
                    if (key.isValid() && key.isReadable()) {
                        read(c, System.nanoTime());
                    }
                } catch (IOException e) {
                    fail(c, System.nanoTime());
                }
            }
        }
        for (Connection c : new ArrayList<>(open)) {
            if (c.inFlight != null) {
                secondAt(System.nanoTime()).outcomes[TIMEOUT]++;
            }
            close(c);
        }
        secondAt(System.nanoTime()).outcomes[TIMEOUT] += waiting.size();
        scheduler.interrupt();
        scraper.interrupt();
    }

    /** Called by the scheduler thread when a request is due: hands it to the I/O thread. */
    private void due(long due) {
        dueQueue.add(due);
        selector.wakeup();
    }

    private int inFlight() {
        int n = 0;
        for (Connection c : open) {
            if (c.inFlight != null) {
                n++;
            }
        }
        return n;
    }

    /**
     * Requests still waiting for a connection past their deadline are given up. A request in flight
     * is not: its connection stays busy until the answer comes (closing it would only add a new
     * connection's cost to a server that is already behind), and an answer later than the deadline
     * counts as a timeout, whatever its status.
     */
    private void expire(long now) {
        while (!waiting.isEmpty() && now - waiting.peekFirst().due > timeoutNanos) {
            waiting.pollFirst();
            secondAt(now).outcomes[TIMEOUT]++;
        }
    }

    /** Waiting requests onto idle connections; new connections while under the cap. */
    private void dispatch(long now) throws IOException {
        while (!waiting.isEmpty()) {
            Connection c = idle.pollFirst();
            if (c == null) {
                int connecting = 0;
                for (Connection o : open) {
                    if (!o.connected) {
                        connecting++;
                    }
                }
                // open as many connections as requests are waiting (less those being opened)
                if (open.size() < maxConnections && connecting < waiting.size()) {
                    connect();
                    continue;
                }
                return;
            }
            Request r = waiting.pollFirst();
            c.inFlight = r;
            r.sentAt = now;
            secondAt(now).sent++;
            c.out = ByteBuffer.wrap(requestBytes);
            try {
                write(c);
            } catch (IOException e) {
                fail(c, now);
            }
        }
    }

    private void connect() throws IOException {
        SocketChannel ch = SocketChannel.open();
        ch.configureBlocking(false);
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        SelectionKey key = ch.register(selector, 0);
        Connection c = new Connection(ch, key);
        key.attach(c);
        open.add(c);
        connectsMade++;
        if (ch.connect(address)) {
            c.connected = true;
            key.interestOps(SelectionKey.OP_READ);
            idle.addLast(c);
        } else {
            key.interestOps(SelectionKey.OP_CONNECT);
        }
    }

    private void finishConnect(Connection c) throws IOException {
        if (c.channel.finishConnect()) {
            c.connected = true;
            c.key.interestOps(SelectionKey.OP_READ);
            idle.addLast(c);
        }
    }

    private void write(Connection c) throws IOException {
        if (c.out == null) {
            return;
        }
        c.channel.write(c.out);
        if (c.out.hasRemaining()) {
            c.key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
        } else {
            c.out = null;
            c.key.interestOps(SelectionKey.OP_READ);
        }
    }

    private void read(Connection c, long now) throws IOException {
        while (true) {
            readBuffer.clear();
            int n = c.channel.read(readBuffer);
            if (n < 0) {
                parse(c, now); // a last response may have come with the close
                if (c.inFlight != null) {
                    fail(c, now);
                } else {
                    close(c); // the server closed an idle connection
                }
                return;
            }
            if (n == 0) {
                break;
            }
            readBuffer.flip();
            if (c.inLength + n > c.in.length) {
                c.in = Arrays.copyOf(c.in, Math.max(c.in.length * 2, c.inLength + n));
            }
            readBuffer.get(c.in, c.inLength, n);
            c.inLength += n;
        }
        parse(c, now);
    }

    /** A whole response in c.in: record it. */
    private void parse(Connection c, long now) {
        int headerEnd = indexOf(c.in, c.inLength, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII), 0);
        if (headerEnd < 0) {
            return;
        }
        String head = new String(c.in, 0, headerEnd, StandardCharsets.ISO_8859_1);
        String[] lines = head.split("\r\n");
        int status;
        try {
            status = Integer.parseInt(lines[0].split(" ")[1]);
        } catch (RuntimeException e) {
            fail(c, now);
            return;
        }
        long contentLength = 0;
        boolean chunked = false;
        boolean closeAfter = false;
        boolean poolTimeout = false;
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = lines[i].substring(colon + 1).trim();
            switch (name) {
                case "content-length" -> contentLength = Long.parseLong(value);
                case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                case "connection" -> closeAfter = value.equalsIgnoreCase("close");
                case "x-pool-timeout" -> poolTimeout = true;
                default -> { }
            }
        }
        int bodyStart = headerEnd + 4;
        int end;
        if (chunked) {
            end = chunkedEnd(c.in, c.inLength, bodyStart);
            if (end < 0) {
                return;
            }
        } else {
            if (c.inLength < bodyStart + contentLength) {
                return;
            }
            end = (int) (bodyStart + contentLength);
        }
        Request r = c.inFlight;
        c.inFlight = null;
        System.arraycopy(c.in, end, c.in, 0, c.inLength - end);
        c.inLength -= end;
        if (r != null) {
            Second s = secondAt(now);
            long micros = (now - r.due) / 1000;
            int outcome;
            if (now - r.due > timeoutNanos) {
                outcome = TIMEOUT;
            } else if (status >= 200 && status < 300) {
                outcome = OK;
                s.ok.record(micros);
            } else if (status == 503 && poolTimeout) {
                outcome = POOL_TIMEOUT;
                s.poolTimeout.record(micros);
            } else if (status == 429 || status == 503) {
                outcome = REFUSED;
                s.refused.record(micros);
            } else {
                outcome = ERROR;
            }
            s.outcomes[outcome]++;
        }
        if (closeAfter) {
            close(c);
        } else if (c.channel.isOpen() && !idle.contains(c)) {
            idle.addLast(c);
        }
    }

    /** The end of a chunked body that starts at from, or -1 while incomplete. */
    private static int chunkedEnd(byte[] b, int length, int from) {
        int at = from;
        byte[] crlf = {'\r', '\n'};
        while (true) {
            int lineEnd = indexOf(b, length, crlf, at);
            if (lineEnd < 0) {
                return -1;
            }
            String size = new String(b, at, lineEnd - at, StandardCharsets.ISO_8859_1);
            int semi = size.indexOf(';');
            int n = Integer.parseInt((semi < 0 ? size : size.substring(0, semi)).trim(), 16);
            at = lineEnd + 2;
            if (n == 0) {
                // trailers, then an empty line
                while (true) {
                    int e = indexOf(b, length, crlf, at);
                    if (e < 0) {
                        return -1;
                    }
                    if (e == at) {
                        return at + 2;
                    }
                    at = e + 2;
                }
            }
            if (length < at + n + 2) {
                return -1;
            }
            at += n + 2;
        }
    }

    private static int indexOf(byte[] b, int length, byte[] pattern, int from) {
        outer:
        for (int i = from; i <= length - pattern.length; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (b[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private void fail(Connection c, long now) {
        if (c.inFlight != null) {
            secondAt(now).outcomes[ERROR]++;
            c.inFlight = null;
        }
        close(c);
    }

    private void close(Connection c) {
        open.remove(c);
        idle.remove(c);
        c.key.cancel();
        try {
            c.channel.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    // ---- the hooks and the scraper, on threads of their own ----

    private double phaseStartSeconds(String name) {
        double t = 0;
        for (Phase p : phases) {
            if (p.name().equals(name)) {
                return t;
            }
            t += p.seconds();
        }
        throw new IllegalArgumentException("no phase " + name);
    }

    private void startHooks() {
        for (Hook h : hooks) {
            double at = phaseStartSeconds(h.phase()) + h.at();
            Thread t = new Thread(() -> {
                long when = start + (long) (at * 1e9);
                try {
                    for (long left; (left = when - System.nanoTime()) > 0;) {
                        Thread.sleep(Math.max(1, left / 1_000_000));
                    }
                } catch (InterruptedException e) {
                    return;
                }
                double t0 = (System.nanoTime() - start) / 1e9;
                String answer = http(h.method(), h.url());
                synchronized (hookLog) {
                    hookLog.add(String.format(Locale.ROOT, "%.3f s: %s %s -> %s", t0, h.method(), h.url(), answer));
                    hookTimes.put(h.phase(), t0);
                }
            }, "hook");
            t.setDaemon(true);
            t.start();
        }
    }

    private String scrapeUrl;
    private Pattern scrapePattern;

    private Thread startScraper(long end) {
        Thread t = new Thread(() -> {
            if (scrapeUrl == null) {
                return;
            }
            for (int i = 0; i < seconds.length && System.nanoTime() < end + 2_000_000_000L; i++) {
                long when = start + i * 1_000_000_000L + 500_000_000L; // mid-second
                try {
                    for (long left; (left = when - System.nanoTime()) > 0;) {
                        Thread.sleep(Math.max(1, left / 1_000_000));
                    }
                } catch (InterruptedException e) {
                    return;
                }
                String body = http("GET", scrapeUrl);
                Matcher m = scrapePattern.matcher(body);
                if (m.find()) {
                    try {
                        seconds[i].scraped = Double.parseDouble(m.group(1));
                    } catch (NumberFormatException e) {
                        // left NaN
                    }
                }
            }
        }, "scraper");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static String http(String method, String url) {
        try {
            HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
            c.setRequestMethod(method);
            c.setConnectTimeout(1000);
            c.setReadTimeout(1000);
            int status = c.getResponseCode();
            InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
            String body = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
            c.disconnect();
            return status == 200 ? body : status + " " + body.trim();
        } catch (IOException | RuntimeException e) {
            return "failed: " + e;
        }
    }

    // ---- the report ----

    /** First second s >= from such that series[s..s+window) stay within ±band of the median of the last window seconds before to; -1 if never. */
    static int settle(double[] series, int from, int to, int window, double band) {
        if (to - from < window) {
            return -1;
        }
        double[] tail = Arrays.copyOfRange(series, to - window, to);
        for (double v : tail) {
            if (Double.isNaN(v)) {
                return -1;
            }
        }
        Arrays.sort(tail);
        double median = tail[window / 2];
        for (int s = from; s + window <= to; s++) {
            boolean in = true;
            for (int k = s; k < s + window && in; k++) {
                in = !Double.isNaN(series[k]) && Math.abs(series[k] - median) <= band * Math.abs(median);
            }
            if (in) {
                return s;
            }
        }
        return -1;
    }

    void report(PrintStream out, Path prefix, int skip, int window, double band) throws IOException {
        StringBuilder csv = new StringBuilder(
                "second,phase,due,sent,ok,refused,pool_timeout,error,timeout,ok_p50_ms,ok_p99_ms,ok_max_ms,refused_p99_ms,scraped\n");
        String[] phaseOf = new String[seconds.length];
        int t = 0;
        for (Phase p : phases) {
            for (int i = 0; i < p.seconds(); i++) {
                phaseOf[t++] = p.name();
            }
        }
        for (int i = 0; i < seconds.length; i++) {
            Second s = seconds[i];
            csv.append(String.format(Locale.ROOT, "%d,%s,%d,%d,%d,%d,%d,%d,%d,%.2f,%.2f,%.2f,%.3f,%s%n", i,
                    phaseOf[i] == null ? "drain" : phaseOf[i], s.due, s.sent, s.outcomes[OK], s.outcomes[REFUSED],
                    s.outcomes[POOL_TIMEOUT], s.outcomes[ERROR], s.outcomes[TIMEOUT], s.ok.percentileMs(0.5),
                    s.ok.percentileMs(0.99), s.ok.max / 1000.0, s.refused.percentileMs(0.99),
                    Double.isNaN(s.scraped) ? "" : String.format(Locale.ROOT, "%.6g", s.scraped)));
        }
        Files.writeString(Path.of(prefix + "-seconds.csv"), csv.toString());

        StringBuilder json = new StringBuilder("{\"phases\": [\n");
        out.printf(Locale.ROOT, "%-8s %6s %5s %8s %8s %8s %8s %8s %8s | %8s %8s %8s %8s | %8s %8s | %s%n", "phase", "rate",
                "secs", "due/s", "ok/s", "refused", "pooltmo", "errors", "timeouts", "ok p50", "ok p99", "ok p99.9",
                "ok max", "ref p50", "ref p99", "settle (s after the hook): limit, goodput, p50");
        t = 0;
        for (int pi = 0; pi < phases.size(); pi++) {
            Phase p = phases.get(pi);
            int from = t + Math.min(skip, p.seconds() - 1);
            int to = t + p.seconds();
            Histogram ok = new Histogram();
            Histogram refused = new Histogram();
            long due = 0;
            long[] outcomes = new long[OUTCOMES.length];
            for (int i = from; i < to; i++) {
                ok.add(seconds[i].ok);
                refused.add(seconds[i].refused);
                due += seconds[i].due;
                for (int k = 0; k < outcomes.length; k++) {
                    outcomes[k] += seconds[i].outcomes[k];
                }
            }
            int n = to - from;
            String settleText = "";
            String settleJson = "";
            Double hookAt;
            synchronized (hookLog) {
                hookAt = hookTimes.get(p.name());
            }
            if (hookAt != null) {
                // the first whole second after the hook
                int first = (int) Math.ceil(hookAt);
                double[] limit = new double[seconds.length];
                double[] goodput = new double[seconds.length];
                double[] p50 = new double[seconds.length];
                for (int i = 0; i < seconds.length; i++) {
                    limit[i] = seconds[i].scraped;
                    goodput[i] = seconds[i].outcomes[OK];
                    p50[i] = seconds[i].ok.percentileMs(0.5);
                }
                int sl = settle(limit, first, to, window, band);
                int sg = settle(goodput, first, to, window, band);
                int sp = settle(p50, first, to, window, band);
                double dl = sl < 0 ? Double.NaN : sl - hookAt;
                double dg = sg < 0 ? Double.NaN : sg - hookAt;
                double dp = sp < 0 ? Double.NaN : sp - hookAt;
                settleText = String.format(Locale.ROOT, "%s, %s, %s", fmt(dl), fmt(dg), fmt(dp));
                settleJson = String.format(Locale.ROOT,
                        ", \"hook_at\": %.3f, \"settle_limit_s\": %s, \"settle_goodput_s\": %s, \"settle_p50_s\": %s",
                        hookAt, num(dl), num(dg), num(dp));
            }
            out.printf(Locale.ROOT, "%-8s %6.0f %5d %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f | %8.2f %8.2f %8.2f %8.2f | %8.3f %8.3f | %s%n",
                    p.name(), p.rate(), n, (double) due / n, (double) outcomes[OK] / n, (double) outcomes[REFUSED] / n,
                    (double) outcomes[POOL_TIMEOUT] / n, (double) outcomes[ERROR] / n, (double) outcomes[TIMEOUT] / n,
                    ok.percentileMs(0.5), ok.percentileMs(0.99), ok.percentileMs(0.999), ok.max / 1000.0,
                    refused.percentileMs(0.5), refused.percentileMs(0.99), settleText);
            json.append(String.format(Locale.ROOT,
                    "  {\"name\": \"%s\", \"rate\": %.1f, \"seconds\": %d, \"due_per_s\": %.1f, \"goodput\": %.1f,"
                            + " \"refused_per_s\": %.1f, \"pool_timeout_per_s\": %.1f, \"error_per_s\": %.1f, \"timeout_per_s\": %.1f,"
                            + " \"ok_p50_ms\": %s, \"ok_p99_ms\": %s, \"ok_p999_ms\": %s, \"ok_max_ms\": %s,"
                            + " \"refused_p50_ms\": %s, \"refused_p99_ms\": %s%s}%s%n",
                    p.name(), p.rate(), n, (double) due / n, (double) outcomes[OK] / n, (double) outcomes[REFUSED] / n,
                    (double) outcomes[POOL_TIMEOUT] / n, (double) outcomes[ERROR] / n, (double) outcomes[TIMEOUT] / n,
                    num(ok.percentileMs(0.5)), num(ok.percentileMs(0.99)), num(ok.percentileMs(0.999)), num(ok.max / 1000.0),
                    num(refused.percentileMs(0.5)), num(refused.percentileMs(0.99)), settleJson,
                    pi == phases.size() - 1 ? "" : ","));
            t += p.seconds();
        }
        json.append("], \"connections_opened\": ").append(connectsMade).append(", \"hooks\": [");
        synchronized (hookLog) {
            for (int i = 0; i < hookLog.size(); i++) {
                json.append(i == 0 ? "" : ", ").append('"').append(hookLog.get(i).replace("\\", "\\\\").replace("\"", "'")
                        .replace("\n", " ")).append('"');
                out.println("hook at " + hookLog.get(i).trim());
            }
        }
        json.append("]}\n");
        out.println("connections opened: " + connectsMade);
        Files.writeString(Path.of(prefix + "-summary.json"), json.toString());
    }

    private static String fmt(double v) {
        return Double.isNaN(v) ? "never" : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "null" : String.format(Locale.ROOT, "%.3f", v);
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new HashMap<>();
        List<Hook> hooks = new ArrayList<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --option value: " + args[i]);
            }
            if (args[i].equals("--hook")) {
                String[] h = args[i + 1].split(":", 4);
                hooks.add(new Hook(h[0], Double.parseDouble(h[1]), h[2], h[3]));
            } else {
                opts.put(args[i].substring(2), args[i + 1]);
            }
        }
        URI url = URI.create(required(opts, "url"));
        if (!"127.0.0.1".equals(url.getHost()) && !"localhost".equals(url.getHost())) {
            throw new IllegalArgumentException("loopback only: " + url);
        }
        List<Phase> phases = new ArrayList<>();
        for (String p : required(opts, "phases").split(",")) {
            String[] f = p.split(":");
            phases.add(new Phase(f[0], Double.parseDouble(f[1]), Integer.parseInt(f[2])));
        }
        if (phases.stream().mapToInt(Phase::seconds).sum() > 3600) {
            throw new IllegalArgumentException("at most an hour of phases");
        }
        OpenLoopLoad load = new OpenLoopLoad(url, phases, hooks,
                Integer.parseInt(opts.getOrDefault("connections", "256")),
                Long.parseLong(opts.getOrDefault("timeout-ms", "2000")));
        if (opts.containsKey("scrape")) {
            load.scrapeUrl = opts.get("scrape");
            load.scrapePattern = Pattern.compile(required(opts, "scrape-regex"), Pattern.MULTILINE);
        }
        load.run();
        load.report(System.out, Path.of(opts.getOrDefault("out", "open-loop")),
                Integer.parseInt(opts.getOrDefault("skip", "5")),
                Integer.parseInt(opts.getOrDefault("settle-window", "5")),
                Double.parseDouble(opts.getOrDefault("settle-band", "0.2")));
    }

    private static String required(Map<String, String> opts, String name) {
        String v = opts.get(name);
        if (v == null) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return v;
    }
}
