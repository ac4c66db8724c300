package io.tollgate.keys;

import java.util.List;

/**
 * Finds the client address of a request, and its rate-limit key, from the socket peer address and
 * the forwarding headers, according to {@link TrustedProxies}. Pure: it is given strings, never
 * servlet objects, performs no DNS lookup, never throws on any header content, and is thread-safe.
 *
 * <h2>Which header</h2>
 * By default ({@link HeaderSource#X_FORWARDED_FOR_THEN_FORWARDED}) {@code X-Forwarded-For} is used
 * when it has at least one non-blank line (or is too large to examine within the budget below);
 * otherwise RFC 7239 {@code Forwarded} (its {@code for=} parameters). A present but unusable
 * {@code X-Forwarded-For} does not fall through to {@code Forwarded}. The two are never mixed: their relative order cannot be recovered. <b>Caveat:</b> if
 * your proxies write only {@code Forwarded} they must remove an incoming {@code X-Forwarded-For}, or
 * you must choose {@link HeaderSource#FORWARDED_ONLY}; otherwise a client-written
 * {@code X-Forwarded-For} would take precedence. All lines of a header are read as one list, in
 * order ({@code a, b} + {@code c} is {@code a, b, c}), from the right.
 *
 * <h2>Hop count {@code N}</h2>
 * {@code N} trusted reverse proxies stand in front of the application; the socket peer is the last
 * of them (the one nearest the application). Each appends the address it received the request from,
 * so the rightmost {@code N} entries of the header were written by trusted proxies and the
 * <b>client is the {@code N}-th entry from the right</b> (1-based). Examples with
 * {@code X-Forwarded-For: 203.0.113.7, 198.51.100.7}: N=1 gives {@code 198.51.100.7}; N=2 gives
 * {@code 203.0.113.7}. Everything left of the {@code N}-th entry is client-written and never read.
 * <ul>
 *   <li><b>N = 0</b>: the client is the socket peer; headers are ignored entirely.</li>
 *   <li><b>Fewer than N valid entries</b> (the header is short, absent, or one of the rightmost N
 *       entries is not an address): the client cannot be known from the header. The key is then
 *       the <b>rightmost</b> entry, the address the trusted peer itself saw and wrote, or the peer
 *       address when there is no valid rightmost entry. It is never the leftmost entry, which a
 *       client that skipped a proxy could have written, and never anything left of an invalid
 *       entry.</li>
 * </ul>
 *
 * <h2>CIDR list</h2>
 * When the peer is not inside a trusted CIDR, the client is the peer and headers are ignored.
 * Otherwise the header is walked from the right, skipping addresses inside trusted CIDRs; the first
 * untrusted address is the client. When the walk meets an entry that is not an address, or runs out
 * of entries (all trusted), or reaches the entry cap, the client is the last trusted address
 * reached (the leftmost trusted hop seen, or the peer): never anything beyond a bad entry.
 *
 * <h2>Bounds and garbage</h2>
 * At most {@value #MAX_ENTRIES} entries and {@value #MAX_CHARS} characters (each line also costs one)
 * are examined, from the right; an entry cut by the character budget counts as invalid. Entries are
 * address literals only, optionally bracketed (IPv6) and with a port, which is dropped; host names,
 * {@code unknown}, {@code _obfuscated} identifiers, empty entries and anything else are invalid and
 * handled as above. A peer address that is not a literal (a Unix socket, say) gives the key
 * {@value #UNKNOWN_KEY} whenever the peer would be the answer.
 *
 * <h2>Keys</h2>
 * IPv4 clients are keyed by the dotted quad, and so are IPv6 addresses that carry an IPv4 client
 * (IPv4-mapped {@code ::ffff:a.b.c.d}, NAT64 {@code 64:ff9b::/96}, IPv4-compatible, 6to4 and
 * Teredo: {@link IpAddress#embeddedIpv4()}), so that the users of one NAT64 gateway do not share
 * its /64; other IPv6 clients by their {@code ipv6Prefix} network, e.g.
 * {@code 2001:db8:1:2::/64} ({@link IpAddress#toKey(int)}). Trust and allowlist CIDRs are matched
 * against the address as it is, not the embedded one.
 */
public final class ClientAddressResolver {

  /** At most this many header entries are examined, from the right. */
  public static final int MAX_ENTRIES = 32;
  /** At most this many header characters are examined, from the right (each line costs one more). */
  public static final int MAX_CHARS = 8 * 1024;
  /** The key used when the answer is the peer and the peer string is not an IP literal. */
  public static final String UNKNOWN_KEY = "unknown";
  /** The default IPv6 prefix length used for keys. */
  public static final int DEFAULT_IPV6_PREFIX = 64;

  /** Which forwarding header(s) to read, when the trust settings say headers are read at all. */
  public enum HeaderSource {
    /** {@code X-Forwarded-For} when it has a non-blank line, else {@code Forwarded}. The default. */
    X_FORWARDED_FOR_THEN_FORWARDED,
    /** Only {@code X-Forwarded-For}; {@code Forwarded} is ignored. */
    X_FORWARDED_FOR_ONLY,
    /** Only {@code Forwarded}; {@code X-Forwarded-For} is ignored. */
    FORWARDED_ONLY
  }

  private final TrustedProxies proxies;
  private final int ipv6Prefix;
  private final HeaderSource headerSource;

  /** Resolver with the default IPv6 prefix (/64) and header source. */
  public ClientAddressResolver(TrustedProxies proxies) {
    this(proxies, DEFAULT_IPV6_PREFIX);
  }

  /**
   * @param ipv6Prefix IPv6 clients are keyed by this prefix length, 1..128
   * @throws IllegalArgumentException if {@code ipv6Prefix} is out of range
   */
  public ClientAddressResolver(TrustedProxies proxies, int ipv6Prefix) {
    this(proxies, ipv6Prefix, HeaderSource.X_FORWARDED_FOR_THEN_FORWARDED);
  }

  public ClientAddressResolver(TrustedProxies proxies, int ipv6Prefix, HeaderSource headerSource) {
    if (proxies == null || headerSource == null) {
      throw new IllegalArgumentException("proxies and headerSource are required");
    }
    if (ipv6Prefix < 1 || ipv6Prefix > 128) {
      throw new IllegalArgumentException("ipv6-prefix must be 1..128, was " + ipv6Prefix);
    }
    this.proxies = proxies;
    this.ipv6Prefix = ipv6Prefix;
    this.headerSource = headerSource;
  }

  /**
   * The client's rate-limit key: a normalised IPv4 address, an IPv6 network
   * ({@code 2001:db8:1:2::/64}), or {@value #UNKNOWN_KEY}. Never throws; any argument may be null.
   *
   * @param remoteAddr         the socket peer address, e.g. {@code ServletRequest.getRemoteAddr()}
   * @param xForwardedForLines every {@code X-Forwarded-For} header line, in order of arrival
   * @param forwardedLines     every {@code Forwarded} header line, in order of arrival
   */
  public String resolve(String remoteAddr, List<String> xForwardedForLines, List<String> forwardedLines) {
    if (proxies.ignoresHeaders() && IpAddress.isCanonicalIpv4(remoteAddr)) {
      // the common case, once per decided request: the peer's dotted quad is already its key
      return remoteAddr;
    }
    IpAddress a = resolveAddress(remoteAddr, xForwardedForLines, forwardedLines);
    return a == null ? UNKNOWN_KEY : a.toKey(ipv6Prefix);
  }

  /** How the lines of a request's header are read, when they are needed. */
  public interface HeaderLines<R> {
    /** Every line of {@code request}'s header {@code name}, in order of arrival; may be empty. */
    List<String> of(R request, String name);
  }

  /**
   * As {@link #resolve(String, List, List)}, reading the forwarding headers of {@code request}
   * only when the answer depends on them: none when no proxy is trusted or the peer is not one of
   * the trusted, and {@code Forwarded} only when {@code X-Forwarded-For} is absent (or not read).
   * Behind N proxies counted by hops, at most the rightmost N addresses are parsed.
   */
  public <R> String resolveFrom(String remoteAddr, R request, HeaderLines<R> headers) {
    if (proxies.ignoresHeaders() && IpAddress.isCanonicalIpv4(remoteAddr)) {
      return remoteAddr;
    }
    if (proxies.isHopCount() && headerSource != HeaderSource.FORWARDED_ONLY) {
      // behind N load balancers, the usual production case: their own header, read once
      List<String> xForwardedFor = headers.of(request, X_FORWARDED_FOR);
      String key = dottedQuadHop(xForwardedFor, proxies.hopCount());
      if (key != null) {
        return key;
      }
      IpAddress a = addressFrom(remoteAddr, request,
          (r, name) -> X_FORWARDED_FOR.equals(name) ? xForwardedFor : headers.of(r, name));
      return a == null ? UNKNOWN_KEY : a.toKey(ipv6Prefix);
    }
    IpAddress a = addressFrom(remoteAddr, request, headers);
    return a == null ? UNKNOWN_KEY : a.toKey(ipv6Prefix);
  }

  /**
   * At most this many characters of a line are looked at by {@link #dottedQuadHop}, far within
   * {@link #MAX_CHARS}: a longer run (spaces around an entry) is left to the full reading, which
   * keeps to the budget.
   */
  static final int QUICK_HOP_CHARS = 1024;

  /**
   * Behind {@code n} proxies counted by hops, the key of the {@code n}-th entry from the right of
   * {@code X-Forwarded-For} when that is all the usual header: the rightmost {@code n} entries
   * are in its last line, each a dotted quad as {@link IpAddress#toString()} writes it (with
   * spaces or tabs around it at most, no port). Such an entry is its own key (parsing it and
   * making the key would give the same text), so the key is the line itself when the entry is the
   * whole line, else the entry cut out of it: no address parsed, no chain of hops, no copy of the
   * line. Null in every other case (fewer entries in the last line, a blank last line, a port,
   * IPv6, anything that is not an address, a line longer than {@link #QUICK_HOP_CHARS}), for the
   * full reading, which gives the same key whenever this one gives one.
   */
  static String dottedQuadHop(List<String> lines, int n) {
    if (lines == null || lines.isEmpty() || n < 1) {
      return null;
    }
    String line = lines.get(lines.size() - 1);
    if (line == null || line.length() > QUICK_HOP_CHARS) {
      return null;
    }
    int end = line.length();
    for (int hop = 1; ; hop++) {
      int to = end;
      while (to > 0 && IpAddress.isOws(line.charAt(to - 1))) {
        to--;
      }
      int comma = line.lastIndexOf(',', to - 1);
      int from = comma + 1;
      while (from < to && IpAddress.isOws(line.charAt(from))) {
        from++;
      }
      if (!IpAddress.isCanonicalIpv4(line, from, to)) {
        return null;
      }
      if (hop == n) {
        return from == 0 && to == line.length() ? line : line.substring(from, to);
      }
      if (comma < 0) {
        return null; // the line has fewer entries: the full reading looks at the earlier lines
      }
      end = comma;
    }
  }

  /**
   * The client's full address (before prefix masking), or {@code null} when the answer is a peer
   * that is not an IP literal. Never throws; any argument may be null.
   */
  public IpAddress resolveAddress(String remoteAddr, List<String> xForwardedForLines,
                  List<String> forwardedLines) {
    return addressFrom(remoteAddr, null,
        (ignored, name) -> X_FORWARDED_FOR.equals(name) ? xForwardedForLines : forwardedLines);
  }

  private static final String X_FORWARDED_FOR = "X-Forwarded-For";
  private static final String FORWARDED = "Forwarded";

  private <R> IpAddress addressFrom(String remoteAddr, R request, HeaderLines<R> headers) {
    IpAddress peer;
    try {
      peer = IpAddress.parseHostPort(remoteAddr);
    } catch (RuntimeException e) {
      peer = null; // defensive: the parser is not expected to throw
    }
    if (proxies.ignoresHeaders()) {
      return peer;
    }
    if (!proxies.isHopCount() && !proxies.trusts(peer)) {
      return peer;
    }
    ForwardingHeaders.Chain chain = chain(request, headers);
    if (chain == null) {
      return peer; // defensive: the readers are not expected to throw
    }
    if (proxies.isHopCount()) {
      int n = proxies.hopCount();
      if (chain.valid >= n) {
        return chain.hops[n - 1];
      }
      return chain.valid > 0 ? chain.hops[0] : peer;
    }
    IpAddress last = peer;
    for (int i = 0; i < chain.valid; i++) {
      IpAddress hop = chain.hops[i];
      if (!proxies.trusts(hop)) {
        return hop;
      }
      last = hop;
    }
    return last;
  }

  /**
   * The chain of the header that applies; null when a reader failed. The header's lines are read
   * as the request gives them (a failure there is the request's, and is thrown), and only when
   * needed.
   */
  private <R> ForwardingHeaders.Chain chain(R request, HeaderLines<R> headers) {
    int capacity = proxies.isHopCount() ? proxies.hopCount() : MAX_ENTRIES;
    switch (headerSource) {
      case X_FORWARDED_FOR_ONLY:
        return readXForwardedFor(headers.of(request, X_FORWARDED_FOR), capacity);
      case FORWARDED_ONLY:
        return readForwarded(headers.of(request, FORWARDED), capacity);
      default:
        ForwardingHeaders.Chain c = readXForwardedFor(headers.of(request, X_FORWARDED_FOR), capacity);
        return c == null || c.present ? c : readForwarded(headers.of(request, FORWARDED), capacity);
    }
  }

  private static ForwardingHeaders.Chain readXForwardedFor(List<String> lines, int capacity) {
    try {
      return ForwardingHeaders.readXForwardedFor(lines, capacity);
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static ForwardingHeaders.Chain readForwarded(List<String> lines, int capacity) {
    try {
      return ForwardingHeaders.readForwarded(lines, capacity);
    } catch (RuntimeException e) {
      return null;
    }
  }

  public TrustedProxies trustedProxies() {
    return proxies;
  }

  public int ipv6Prefix() {
    return ipv6Prefix;
  }

  public HeaderSource headerSource() {
    return headerSource;
  }
}
