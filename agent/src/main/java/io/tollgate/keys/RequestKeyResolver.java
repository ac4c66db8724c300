package io.tollgate.keys;

import io.tollgate.http.HttpExchange;
import java.util.List;
import java.util.Locale;

/**
 * Turns a rule's {@code key:} (one part or a list of parts) into the string a request counts
 * against.
 *
 * <p>Parts: {@code ip} (the client address, through the trusted proxies), {@code global} (one
 * bucket for everyone), {@code header:NAME} and {@code cookie:NAME} (kept only as a hash: they are
 * often secrets), {@code param:NAME} (the Servlet API's parameter: the query string's first, then
 * the form body's), {@code query:NAME} (the query string only), {@code form:NAME} (the form body
 * only), {@code principal}, {@code route}. A request that lacks a part
 * (no API key header, no user) gets no key: the rule does not apply to it, rather than putting
 * every such request on one shared empty key.
 *
 * <p>Every part is stored bounded ({@link KeyPartBound}: over 64 bytes, a hash); with
 * {@code key-normalize}, parts a client writes as text are {@link KeyNormalizer normalised} first.
 */
public final class RequestKeyResolver {

  /** Marks keys taken from the fallback, so they never share a budget with a primary key. */
  private static final String FALLBACK_MARK = "fallback";
  /**
   * An exchange's header lines, for the client address's forwarding headers: a class, not a
   * method reference, whose call site the application's first request would link (spinning a
   * class on its way to its answer).
   */
  private static final ClientAddressResolver.HeaderLines<HttpExchange> HEADER_LINES =
      new ClientAddressResolver.HeaderLines<HttpExchange>() {
        @Override
        public List<String> of(HttpExchange exchange, String name) {
          return exchange.headerLines(name);
        }
      };

  private final Part[] parts;
  private final RequestKeyResolver fallback;
  private final String description;
  /** {@code key-normalize}: whether client-written text parts are normalised. */
  private final boolean normalizes;

  private RequestKeyResolver(Part[] parts, RequestKeyResolver fallback, String description) {
    this(parts, fallback, description, false);
  }

  private RequestKeyResolver(
      Part[] parts, RequestKeyResolver fallback, String description, boolean normalizes) {
    this.parts = parts;
    this.fallback = fallback;
    this.description = description;
    this.normalizes = normalizes;
  }

  /** This key, with client-written text parts normalised ({@code key-normalize: true}) or not. */
  public RequestKeyResolver normalizing(boolean normalize) {
    return new RequestKeyResolver(
        parts, fallback == null ? null : fallback.normalizing(normalize), description, normalize);
  }

  /**
   * What a one-part key stores for a request whose part is {@code value}: for allowlisted key
   * values, which must compare equal to what requests resolve to.
   */
  public String storedForm(String value) {
    return parts[0].stored(value, normalizes);
  }

  public static RequestKeyResolver of(List<String> partNames, ClientAddressResolver clients) {
    Part[] parts = new Part[partNames.size()];
    for (int i = 0; i < parts.length; i++) {
      parts[i] = Part.parse(partNames.get(i), clients);
    }
    return new RequestKeyResolver(parts, null, String.join(", ", partNames));
  }

  /**
   * This key, and for requests that lack it the key {@code fallbackParts} describes (for example
   * {@code ip} for requests without an API key); null for no fallback.
   */
  public RequestKeyResolver withFallback(
      List<String> fallbackParts, ClientAddressResolver clients) {
    if (fallbackParts == null || fallbackParts.isEmpty()) {
      return this;
    }
    return new RequestKeyResolver(
        parts, of(fallbackParts, clients).normalizing(normalizes), description, normalizes);
  }

  /** The key as the rules file spells it, for the log: {@code header:X-Api-Key}. */
  public String description() {
    return description;
  }

  /**
   * The fallback key, marked so that it never shares a budget with a primary key; null without a
   * fallback or when the request lacks it too. For requests whose primary key is missing.
   */
  public String resolveFallback(HttpExchange exchange) {
    if (fallback == null) {
      return null;
    }
    String other = fallback.resolvePrimary(exchange);
    return other == null ? null : KeyParts.join(FALLBACK_MARK, other);
  }

  /** The key without the fallback: null when the request lacks one of its parts. */
  public String resolvePrimary(HttpExchange exchange) {
    if (parts.length == 1) {
      return parts[0].stored(parts[0].valueOf(exchange), normalizes);
    }
    String[] values = new String[parts.length];
    for (int i = 0; i < parts.length; i++) {
      values[i] = parts[i].stored(parts[i].valueOf(exchange), normalizes);
      if (values[i] == null) {
        return null;
      }
    }
    return KeyParts.join(values);
  }

  /** True when a part needs the route template, which only framework entry points know. */
  public boolean needsRoute() {
    for (Part part : parts) {
      if (part.kind == Kind.ROUTE) {
        return true;
      }
    }
    return fallback != null && fallback.needsRoute();
  }

  /**
   * True when the key (without its fallback) has the authenticated user as a part: an
   * application's own security filter may set it after the first servlet entry point.
   */
  public boolean needsPrincipal() {
    for (Part part : parts) {
      if (part.kind == Kind.PRINCIPAL) {
        return true;
      }
    }
    return false;
  }

  /**
   * True when a part of the key (or its fallback) may be a form body's field: such a rule may
   * have to wait until the application reads its parameters ({@link #waitsForBody}).
   */
  public boolean mayNeedBody() {
    for (Part part : parts) {
      if (part.kind == Kind.PARAM || part.kind == Kind.FORM) {
        return true;
      }
    }
    return fallback != null && fallback.mayNeedBody();
  }

  /**
   * True when this request's key cannot be had without reading a body the application has not
   * read yet: a {@code form:} part, or a {@code param:} part that the query string does not give.
   */
  public boolean waitsForBody(HttpExchange exchange) {
    if (!exchange.formBodyUnread()) {
      return false;
    }
    for (Part part : parts) {
      if (part.kind == Kind.FORM
          || (part.kind == Kind.PARAM && exchange.queryParameter(part.name) == null)) {
        return true;
      }
    }
    return fallback != null && fallback.waitsForBody(exchange);
  }

  /** Whether the fallback key stands in for requests that lack this one. */
  public boolean hasFallback() {
    return fallback != null;
  }

  private enum Kind {
    IP,
    GLOBAL,
    HEADER,
    COOKIE,
    PARAM,
    QUERY,
    FORM,
    PRINCIPAL,
    ROUTE
  }

  private static final class Part {
    final Kind kind;
    final String name;
    final ClientAddressResolver clients;

    Part(Kind kind, String name, ClientAddressResolver clients) {
      this.kind = kind;
      this.name = name;
      this.clients = clients;
    }

    static Part parse(String text, ClientAddressResolver clients) {
      int colon = text.indexOf(':');
      String kind = (colon < 0 ? text : text.substring(0, colon)).trim().toLowerCase(Locale.ROOT);
      String name = colon < 0 ? null : text.substring(colon + 1).trim();
      switch (kind) {
        case "ip":
          return new Part(Kind.IP, null, clients);
        case "global":
          return new Part(Kind.GLOBAL, null, clients);
        case "header":
          return new Part(Kind.HEADER, name, clients);
        case "cookie":
          return new Part(Kind.COOKIE, name, clients);
        case "param":
          return new Part(Kind.PARAM, name, clients);
        case "query":
          return new Part(Kind.QUERY, name, clients);
        case "form":
          return new Part(Kind.FORM, name, clients);
        case "principal":
          return new Part(Kind.PRINCIPAL, null, clients);
        case "route":
          return new Part(Kind.ROUTE, null, clients);
        default:
          throw new IllegalArgumentException("unknown key part: " + text);
      }
    }

    String valueOf(HttpExchange exchange) {
      switch (kind) {
        case IP:
          String peer = exchange.remoteAddress();
          if (peer == null) {
            return null;
          }
          // the forwarding headers are read only if the answer depends on them
          return clients.resolveFrom(peer, exchange, HEADER_LINES);
        case GLOBAL:
          return "*";
        case HEADER:
          return hashed(exchange.header(name));
        case COOKIE:
          return hashed(exchange.cookie(name));
        case PARAM:
          return emptyToNull(exchange.parameter(name));
        case QUERY:
          return emptyToNull(exchange.queryParameter(name));
        case FORM:
          return emptyToNull(exchange.formParameter(name));
        case PRINCIPAL:
          return emptyToNull(exchange.principalName());
        case ROUTE:
          return exchange.route();
        default:
          throw new AssertionError(kind);
      }
    }

    /**
     * {@code value} as the key stores it: normalised when the rule asks and a client writes it as
     * text, then bounded in size. The one place every part passes through.
     */
    String stored(String value, boolean normalize) {
      if (value != null && normalize && writtenAsText()) {
        value = KeyNormalizer.normalize(value);
      }
      return KeyPartBound.bound(value);
    }

    /**
     * Text a client writes freely, where case and invisible characters make no account of their
     * own: everything but addresses, constants, the container's route and principal, and the
     * hashed secrets (an API key's case is significant).
     */
    private boolean writtenAsText() {
      return kind != Kind.IP && kind != Kind.GLOBAL && kind != Kind.ROUTE
          && kind != Kind.PRINCIPAL && kind != Kind.HEADER && kind != Kind.COOKIE;
    }

    private static String hashed(String secret) {
      return secret == null || secret.isEmpty() ? null : KeyHash.hash(secret);
    }

    private static String emptyToNull(String value) {
      return value == null || value.isEmpty() ? null : value;
    }
  }
}
