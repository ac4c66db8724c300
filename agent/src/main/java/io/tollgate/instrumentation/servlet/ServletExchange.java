package io.tollgate.instrumentation.servlet;

import io.tollgate.bootstrap.TollgateBridge;
import io.tollgate.http.HeaderText;
import io.tollgate.http.HttpExchange;
import io.tollgate.http.QueryStrings;
import io.tollgate.http.RefusalMessage;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.security.Principal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/** A servlet request and response, seen through {@link ServletCalls}. */
public final class ServletExchange implements HttpExchange {

  /** Set on the request when the application first reads its parameters or body: how it did. */
  static final String BODY_READ_ATTRIBUTE = "io.tollgate.body-read";

  private static final String PARSED = "parsed";
  private static final String RAW = "raw";

  /** Its {@code calls} read through it, not kept in a field of their own: see {@link #knownUri}. */
  private final ServletApi api;
  private final Object request;
  private final Object response;
  private String route;
  /**
   * The request's URI as {@link #rawPath} reads it, when the entry point that made this exchange
   * had read it already ({@link #requestUriOf}, to learn whether a rule applies), or null. (In
   * place of a field for {@code api.calls}: an exchange is made for every request a rule applies
   * to, and one more field would make it 48 bytes instead of 40.)
   */
  private final String knownUri;
  /** Set when an asynchronous request failed or timed out, before its end is run. */
  private volatile boolean asyncFailed;
  /**
   * The status the container will answer with once its entry returns, when nobody wrote a response
   * (Jetty's 404 for a request no handler took), or -1.
   */
  private int containerAnswer = -1;

  private ServletExchange(ServletApi api, Object request, Object response) {
    this(api, request, response, null);
  }

  private ServletExchange(ServletApi api, Object request, Object response, String knownUri) {
    this.api = api;
    this.request = request;
    this.response = response;
    this.knownUri = knownUri;
  }

  /**
   * The URI of {@code request} as the rules match it ({@link #rawPath}), read before any exchange
   * is made, so that an entry point can tell whether a rule applies to the request at all ({@link
   * io.tollgate.rules.RuleSet#rulesOnPath}); null when it is not an HTTP servlet request.
   */
  public static String requestUriOf(Object request) {
    ServletApi api = ServletApi.of(request);
    return api == null ? null : uriOf(api, request);
  }

  /**
   * The exchange of a request the first time its original dispatch (not a forward, include, error
   * page or async re-dispatch) reaches an outermost entry point (the container's own entry, else a
   * filter or servlet with no request current on the thread); this marks it decided. Null for a
   * request marked already, and for requests that are not HTTP servlet requests; nothing is
   * allocated then.
   *
   * <p>Why a mark on the request, when the thread's request context already tells the entry points
   * inside the outermost one that the request is decided: Tomcat runs its host valve again for an
   * asynchronous request's {@code AsyncContext.dispatch}, and for an error in its asynchronous
   * processing, while the request still says it is the original dispatch ({@code getDispatcherType}
   * turns {@code ASYNC} only further in), on whichever thread does it. On Tomcat's own requests
   * the mark is a note ({@link TomcatRequestNotes}), which no attribute listener hears of;
   * elsewhere the attribute {@link TollgateBridge#DECIDED_ATTRIBUTE}.
   */
  public static ServletExchange firstTimeDecided(Object request, Object response) {
    return firstTimeDecided(request, response, null);
  }

  /**
   * As {@link #firstTimeDecided(Object, Object)}, for an entry point that has read the request's
   * URI already ({@link #requestUriOf}; null when it has not): the exchange does not read it again.
   */
  public static ServletExchange firstTimeDecided(Object request, Object response, String uri) {
    ServletApi api = ServletApi.of(request);
    if (api == null || !isRequestDispatch(api.calls.getDispatcherType(request))) {
      return null;
    }
    TomcatRequestNotes tomcat = api.tomcatNotes;
    Boolean noted =
        tomcat == null ? null : tomcat.noteFirst(request, TollgateBridge.DECIDED_ATTRIBUTE);
    if (noted == null) {
      return firstTimeMarked(api, request, response, TollgateBridge.DECIDED_ATTRIBUTE, uri);
    }
    return noted ? new ServletExchange(api, request, response, uri) : null;
  }

  /**
   * The exchange of a request the first time its original dispatch (not a forward, include, error
   * page or async re-dispatch) reaches an entry point that marks requests with {@code mark} (a
   * framework's handler: {@link io.tollgate.engine.RequestScope#HANDLER_DECIDED_MARK}), as a
   * request attribute; this marks it. Null at every later such entry point of the same request,
   * and for requests that are not HTTP servlet requests; nothing is allocated then.
   */
  public static ServletExchange firstTimeMarked(Object request, Object response, String mark) {
    ServletApi api = ServletApi.of(request);
    if (api == null || !isRequestDispatch(api.calls.getDispatcherType(request))) {
      return null;
    }
    return firstTimeMarked(api, request, response, mark, null);
  }

  private static ServletExchange firstTimeMarked(
      ServletApi api, Object request, Object response, String mark, String uri) {
    ServletCalls calls = api.calls;
    if (calls.getAttribute(request, mark) != null) {
      return null;
    }
    calls.setAttribute(request, mark, Boolean.TRUE);
    return new ServletExchange(api, request, response, uri);
  }

  /**
   * The exchange of a request at a later entry point of the same request (a filter after the
   * first, the servlet), as that point sees it (often wrapped by a security filter), without
   * marking it; null for requests that are not HTTP servlet requests.
   */
  public static ServletExchange atLaterEntry(Object request, Object response) {
    ServletApi api = ServletApi.of(request);
    return api == null ? null : new ServletExchange(api, request, response);
  }

  private static boolean isRequestDispatch(Object dispatcherType) {
    return dispatcherType != null && "REQUEST".equals(dispatcherType.toString());
  }

  @Override
  public String method() {
    return api.calls.getMethod(request);
  }

  @Override
  public String rawPath() {
    return knownUri != null ? knownUri : uriOf(api, request);
  }

  private static String uriOf(ServletApi api, Object request) {
    TomcatRequestUri tomcat = api.tomcatUri;
    if (tomcat != null) {
      String uri = tomcat.of(request);
      if (uri != null) {
        return uri;
      }
    }
    return api.calls.getRequestURI(request);
  }

  @Override
  public String remoteAddress() {
    return api.calls.getRemoteAddr(request);
  }

  /**
   * The container's server name rather than the Host header: it has parsed the port off already,
   * and on HTTP/2 it reads {@code :authority}, which not every container copies into a Host header.
   */
  @Override
  public String host() {
    return HttpExchange.canonicalHost(api.calls.getServerName(request));
  }

  @Override
  public String header(String name) {
    return api.calls.getHeader(request, name);
  }

  @Override
  public List<String> headerLines(String name) {
    Enumeration<?> values = api.calls.getHeaders(request, name);
    if (values == null || !values.hasMoreElements()) {
      return Collections.emptyList();
    }
    String first = String.valueOf(values.nextElement());
    if (!values.hasMoreElements()) {
      // the usual header, one line (X-Forwarded-For behind a proxy): no list and array for it
      return Collections.singletonList(first);
    }
    List<String> lines = new ArrayList<>(2);
    lines.add(first);
    while (values.hasMoreElements()) {
      lines.add(String.valueOf(values.nextElement()));
    }
    return lines;
  }

  @Override
  public String principalName() {
    Principal principal = api.calls.getUserPrincipal(request);
    return principal == null ? null : principal.getName();
  }

  /**
   * The Servlet API's parameter, query string first, without ever reading a body: from the query
   * string, else from the form once the application has parsed it; null while it has not.
   */
  @Override
  public String parameter(String name) {
    String inQuery = queryParameter(name);
    return inQuery != null ? inQuery : formParameter(name);
  }

  @Override
  public String queryParameter(String name) {
    return QueryStrings.first(api.calls.getQueryString(request), name);
  }

  /**
   * The form body's first value of {@code name}, once the application has parsed its parameters
   * (so reading them again costs nothing and decodes them as it did): the container's values
   * after those the query string gave. Null before, after a raw read of the body, and when the
   * container cannot parse the form (Jetty 12 ee10 throws {@code BadMessageException: 400: Unable
   * to parse form content} for a form after {@code setCharacterEncoding("ISO-8859-1")}): the
   * application's own read meets the same failure, so the field is absent for it too, and it is
   * no error of the agent's.
   */
  @Override
  public String formParameter(String name) {
    if (!PARSED.equals(api.calls.getAttribute(request, BODY_READ_ATTRIBUTE))
        || !QueryStrings.isFormBody(api.calls.getContentType(request))) {
      return null;
    }
    String[] values;
    try {
      values = api.calls.getParameterValues(request, name);
    } catch (RuntimeException unparsable) {
      return null;
    }
    int inQuery = QueryStrings.count(api.calls.getQueryString(request), name);
    return values != null && values.length > inQuery ? values[inQuery] : null;
  }

  @Override
  public boolean formBodyUnread() {
    return QueryStrings.isFormBody(api.calls.getContentType(request))
        && api.calls.getAttribute(request, BODY_READ_ATTRIBUTE) == null;
  }

  /**
   * Parses a multipart body as the application is about to, by {@code getParts} (the container
   * parses once, and puts the parts' fields before the query string's in its parameters only when
   * parts come first): false when the container cannot.
   */
  boolean parseParts() {
    try {
      api.calls.getParts(request);
      return true;
    } catch (Exception e) {
      return false; // the application's own call meets the same failure
    }
  }

  /**
   * The application has begun to read the request's parameters ({@code raw} false) or its raw
   * body: marked on the request, so that every exchange of it, wrapped or not, knows.
   */
  void applicationReadBody(boolean raw) {
    api.calls.setAttribute(request, BODY_READ_ATTRIBUTE, raw ? RAW : PARSED);
  }

  @Override
  public String cookie(String name) {
    Object[] cookies = api.calls.getCookies(request);
    if (cookies == null) {
      return null;
    }
    for (Object cookie : cookies) {
      if (name.equals(api.calls.getName(cookie))) {
        return api.calls.getValue(cookie);
      }
    }
    return null;
  }

  @Override
  public String route() {
    return route;
  }

  /** Set by a framework entry point that knows the matched route template. */
  public void setRoute(String routeTemplate) {
    this.route = routeTemplate;
  }

  /** The servlet request, as the entry point that made this exchange got it. */
  public Object servletRequest() {
    return request;
  }

  /**
   * The container will answer {@code status} itself after its entry returns, unless a response
   * was committed by then: the status a {@code count-when} settles by.
   */
  public void containerAnswersUnlessCommitted(int status) {
    containerAnswer = status;
  }

  public Object attribute(String name) {
    return api.calls.getAttribute(request, name);
  }

  public String contextPath() {
    return api.calls.getContextPath(request);
  }

  /**
   * On Tomcat's own responses as bytes in its headers ({@link TomcatResponseHeaders}: Tomcat then
   * has no string to encode when it commits the response), else by {@code setHeader}.
   */
  @Override
  public void setResponseHeader(String name, String value) {
    TomcatResponseHeaders tomcat = api.tomcatHeaders;
    if (tomcat == null || !tomcat.set(response, name, value)) {
      api.calls.setHeader(response, name, value);
    }
  }

  /**
   * As {@link #setResponseHeader(String, String)}, with the bytes the engine keeps: on Tomcat's
   * own responses copied as they are, with no character looked at again.
   */
  @Override
  public void setResponseHeader(HeaderText name, HeaderText value) {
    TomcatResponseHeaders tomcat = api.tomcatHeaders;
    if (tomcat == null || !tomcat.set(response, name, value)) {
      api.calls.setHeader(response, name.text(), value.text());
    }
  }

  /** On Tomcat's own responses both put in as bytes, its response looked up once for them. */
  @Override
  public void setResponseHeaders(HeaderText name, HeaderText value, HeaderText secondName,
      HeaderText secondValue) {
    TomcatResponseHeaders tomcat = api.tomcatHeaders;
    if (tomcat == null || !tomcat.setBoth(response, name, value, secondName, secondValue)) {
      setResponseHeader(name, value);
      setResponseHeader(secondName, secondValue);
    }
  }

  @Override
  public String responseHeader(String name) {
    return api.calls.getResponseHeader(response, name);
  }

  /**
   * The response's status; 500 when an exception escaped the application, or an asynchronous
   * request failed or timed out, and nothing was committed: the container answers 500 then,
   * after the entry point has returned; and, uncommitted, the status the container said it would
   * answer ({@link #containerAnswersUnlessCommitted}).
   */
  @Override
  public int responseStatus(boolean uncaught) {
    if ((uncaught || asyncFailed) && !api.calls.isCommitted(response)) {
      return 500;
    }
    if (containerAnswer > 0 && !api.calls.isCommitted(response)) {
      return containerAnswer;
    }
    return api.calls.getStatus(response);
  }

  /**
   * Resets and writes the response directly, rather than {@code sendError}, which would dispatch
   * to the application's error page and lose our headers and body. The headers go as the quota
   * headers of an allowed response do ({@link #setResponseHeader}): on Tomcat's own responses as
   * bytes, so that Tomcat encodes none of a refusal's five header names and values when it commits
   * it (under a flood, the one response it writes); the bytes on the wire are the same. There all
   * five go in at once, kept with the refusal as bytes ({@link RefusalMessage#headerText}), with
   * Tomcat's response looked up once for them ({@link TomcatResponseHeaders#setAll}).
   */
  @Override
  public void writeRefusal(RefusalMessage refusal) {
    if (api.calls.isCommitted(response)) {
      throw new IllegalStateException("the response was already committed");
    }
    int status = refusal.status();
    api.calls.reset(response);
    api.calls.setStatus(response, status);
    TomcatResponseHeaders tomcat = api.tomcatHeaders;
    if (tomcat == null || !tomcat.setAll(response, refusal)) {
      // Tomcat's own response (which setAll took) writes no phrase and needs none: only the
      // others are looked at (two class lookups a refusal, ~2% of a refused request on Tomcat)
      ReasonPhrase.apply(response, status);
      for (int i = 0, n = refusal.headerCount(); i < n; i++) {
        setResponseHeader(refusal.headerText(i, false), refusal.headerText(i, true));
      }
    }
    byte[] body = refusal.body();
    api.calls.setContentType(response, refusal.contentType());
    api.calls.setContentLength(response, body.length);
    try {
      OutputStream out = api.calls.getOutputStream(response);
      out.write(body);
      api.calls.flushBuffer(response);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Runs {@code action} once when this request is over: now, or, for an asynchronous request, when
   * it completes, fails or times out.
   */
  @Override
  public void whenComplete(Runnable action) {
    boolean async = false;
    try {
      async = isAsyncStarted();
      if (async) {
        AsyncCompletion.register(request, api.namespace, action, () -> asyncFailed = true);
      }
    } catch (Exception e) {
      // Better to give back early than never: the permit must not leak.
      async = false;
    }
    if (!async) {
      action.run();
    }
  }

  public boolean isAsyncStarted() {
    return api.calls.isAsyncStarted(request);
  }
}
