package io.tollgate.instrumentation.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tollgate.bootstrap.Refusal;
import io.tollgate.engine.RulesHolder;
import io.tollgate.engine.TollgateGate;
import io.tollgate.instrumentation.container.ContainerRequests;
import io.tollgate.limiters.Clock;
import io.tollgate.rules.RuleSetFactory;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A request is decided once, at its outermost entry point, whatever entry points of its original
 * dispatch follow inside it (the container's, filters', the servlet's; the request wrapped or
 * not), however they end (by an exception, with the request gone asynchronous), and whatever the
 * container runs again for it later (Tomcat's host valve, for an asynchronous request's dispatch
 * or error, before the request says it is an {@code ASYNC} dispatch); and the thread's next
 * request is decided again. (Requests here are not Tomcat's, so their mark is the attribute; on
 * Tomcat's own, the note, in {@code ContainerEntryIT} and {@code EntryPointsIT}.)
 *
 * <p>Each case is a script run on one thread, as a container runs it; its steps:
 *
 * <ul>
 *   <li>{@code container N}, {@code servlet N}, {@code wrapped N}: an entry point starts with
 *       request N: the container's own entry (Tomcat's host valve, Jetty's server), a filter or
 *       servlet, or one with the request in a {@code HttpServletRequestWrapper} (as a security
 *       filter passes it on);
 *   <li>{@code return}, {@code throw}: the innermost running entry point returns, or ends by an
 *       exception from the application;
 *   <li>{@code startAsync N}: the application starts request N asynchronously (its entry points
 *       then return, and the thread goes back to the container);
 *   <li>{@code dispatch N TYPE}: request N says it is now in a dispatch of that type ({@code
 *       ASYNC}, {@code FORWARD}, {@code INCLUDE}, {@code ERROR});
 *   <li>{@code fail N}: request N's next decision fails (the engine throws: an agent bug, which
 *       the bridge reports, letting the request pass);
 *   <li>{@code recycle N}: request N is over, and the container serves the thread's next request
 *       with the same object (as Tomcat does), its attributes cleared;
 *   <li>{@code decided N=K}: request N has been decided K times (since its last recycling).
 * </ul>
 *
 * <p>After every script no request is current on the thread.
 */
class FirstTimeDecidedTest {

  @TempDir Path dir;
  private TollgateGate engine;
  private ServletRequests servlets;
  private ContainerRequests container;
  /** What the entry points threw, which the bridge would have reported. */
  private final List<RuntimeException> failures = new ArrayList<>();

  @BeforeEach
  void rules() throws Exception {
    Path rules = dir.resolve("rules.yaml");
    Files.write(rules, String.join("\n",
        "rules:",
        "  - name: hello",
        "    match:",
        "      path: /hello",
        "    key: ip",
        "    limit: 1000",
        "    period: 1m",
        "").getBytes(StandardCharsets.UTF_8));
    RulesHolder holder = new RulesHolder(new RuleSetFactory(Clock.system()));
    holder.useFile(rules.toString());
    engine = new TollgateGate(holder);
    servlets = new ServletRequests(engine);
    container = new ContainerRequests(engine);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
    // what                                                         | script
    "the container's entry, then a filter and the servlet           | container 1, servlet 1, servlet 1, return, return, decided 1=1, return, decided 1=1",
    "a filter first (no container entry), then the servlet          | servlet 1, servlet 1, return, return, decided 1=1",
    "later entry points with the request wrapped                    | container 1, wrapped 1, wrapped 1, return, return, return, decided 1=1",
    "the first entry point with the request wrapped                 | wrapped 1, servlet 1, return, return, decided 1=1",
    "a forward, an include and an error page inside it              | servlet 1, dispatch 1 FORWARD, servlet 1, return, dispatch 1 INCLUDE, servlet 1, return, dispatch 1 ERROR, servlet 1, return, return, decided 1=1",
    "a request made in-process while serving another                | container 1, servlet 2, return, return, decided 1=1, decided 2=0",
    "the thread's next request                                      | container 1, servlet 1, return, return, container 2, servlet 2, return, return, decided 1=1, decided 2=1",
    "the same object recycled for the thread's next request         | container 1, return, recycle 1, container 1, servlet 1, return, return, decided 1=1",
    "the servlet throws: the exception leaves every entry point      | container 1, servlet 1, throw, throw, decided 1=1, container 2, return, decided 2=1",
    "the first entry point throws                                   | servlet 1, throw, servlet 2, servlet 2, return, return, decided 1=1, decided 2=1",
    "async started: the thread's next request is decided            | container 1, servlet 1, startAsync 1, return, return, container 2, servlet 2, return, return, decided 1=1, decided 2=1",
    "async dispatched: the filters see ASYNC                        | servlet 1, startAsync 1, return, dispatch 1 ASYNC, servlet 1, return, decided 1=1, servlet 2, return, decided 2=1",
    "async dispatched through the container's entry, still REQUEST  | container 1, servlet 1, startAsync 1, return, return, container 1, dispatch 1 ASYNC, servlet 1, return, return, decided 1=1",
    "an async error processed through the container's entry         | container 1, servlet 1, startAsync 1, return, return, container 1, return, decided 1=1, container 2, return, decided 2=1",
    "the decision fails: the later entry points pass it undecided   | fail 1, container 1, servlet 1, wrapped 1, return, return, return, decided 1=0, servlet 2, return, decided 2=1",
  })
  void eachRequestIsDecidedOnceAtItsOutermostEntry(String what, String script) throws Exception {
    Map<String, FakeRequest> requests = new HashMap<>();
    Deque<Running> running = new ArrayDeque<>();
    for (String step : script.split(",")) {
      String[] words = step.trim().split(" ");
      String verb = words[0];
      String[] check = words.length > 1 ? words[1].split("=") : new String[] {""};
      FakeRequest request = requests.computeIfAbsent(check[0], n -> new FakeRequest());
      switch (verb) {
        case "container":
        case "servlet":
        case "wrapped":
          running.push(enter(verb, request));
          break;
        case "return":
        case "throw":
          running.pop().exit(verb.equals("throw") ? new IllegalStateException("the app's") : null);
          break;
        case "startAsync":
          request.asyncStarted = true;
          break;
        case "dispatch":
          request.dispatch = DispatcherType.valueOf(words[2]);
          break;
        case "fail":
          request.failNextDecision = true;
          break;
        case "recycle":
          request.recycle();
          break;
        case "decided":
          assertEquals(Integer.parseInt(check[1]), request.decisions,
              what + ": decisions of request " + check[0] + ", its headers " + request.headers
                  + ", failures " + failures);
          break;
        default:
          throw new IllegalArgumentException(step);
      }
    }
    assertEquals(0, running.size(), what + ": the script leaves entry points running");
    long failing = Arrays.stream(script.split(",")).filter(step -> step.trim().startsWith("fail"))
        .count();
    if (failures.size() != failing) {
      throw new AssertionError(what + ": " + failures.size() + " entry points failed, "
          + failing + " expected", failures.isEmpty() ? null : failures.get(0));
    }
    assertNull(engine.currentRequest(), what + ": a request left current on the thread");
  }

  /** An entry point that started: what the woven code hands its end. */
  private interface Running {
    void exit(Throwable thrown) throws Exception;
  }

  /** An entry point starts, as the bridge starts it: a failure lets the request go on. */
  private Running enter(String where, FakeRequest request) throws Exception {
    Object scope;
    try {
      scope = where.equals("container")
          ? container.started(request.servletRequest, request.response)
          : servlets.enter(where.equals("wrapped")
              ? new HttpServletRequestWrapper(request.servletRequest)
              : request.servletRequest, request.response);
    } catch (RuntimeException failure) {
      failures.add(failure);
      scope = null; // reported by the bridge; the request passes
    }
    Object begun = scope;
    return thrown -> {
      if (begun == null || begun instanceof Refusal) {
        return; // as the bridge: no end to report
      }
      if (where.equals("container")) {
        container.ended(begun, thrown);
      } else {
        servlets.exit(begun, thrown);
      }
    };
  }

  /**
   * A servlet request for {@code GET /hello} as a container holds it (its attributes, dispatch
   * and async state) and its response, which counts the decisions by their quota header.
   */
  private static final class FakeRequest {
    final Map<String, Object> attributes = new HashMap<>();
    DispatcherType dispatch = DispatcherType.REQUEST;
    boolean asyncStarted;
    boolean failNextDecision;
    int decisions;
    /** Every header set on the response, for the failures' messages. */
    final List<String> headers = new ArrayList<>();

    final HttpServletRequest servletRequest = ServletFakes.of(HttpServletRequest.class,
        (proxy, method, args) -> {
          switch (method.getName()) {
            case "getDispatcherType": return dispatch;
            case "isAsyncStarted": return asyncStarted;
            case "getAttribute": return attributes.get((String) args[0]);
            case "setAttribute": attributes.put((String) args[0], args[1]); return null;
            case "removeAttribute": attributes.remove((String) args[0]); return null;
            case "getMethod":
              if (failNextDecision) {
                failNextDecision = false;
                throw new IllegalStateException("the engine fails");
              }
              return "GET";
            case "getRequestURI": return "/hello";
            case "getRemoteAddr": return "198.51.100.7";
            case "getServerName": return "localhost";
            default: return ServletFakes.nothing(method.getReturnType());
          }
        });

    final HttpServletResponse response = ServletFakes.of(HttpServletResponse.class,
        (proxy, method, args) -> {
          switch (method.getName()) {
            case "setHeader":
              headers.add(args[0] + ": " + args[1]);
              if ("RateLimit".equals(args[0])) {
                decisions++;
              }
              return null;
            case "getStatus": return 200;
            default: return ServletFakes.nothing(method.getReturnType());
          }
        });

    /** The container serves its next request with this object, emptied. */
    void recycle() {
      attributes.clear();
      dispatch = DispatcherType.REQUEST;
      asyncStarted = false;
      decisions = 0;
    }
  }
}
