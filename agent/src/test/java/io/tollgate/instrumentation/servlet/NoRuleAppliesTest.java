package io.tollgate.instrumentation.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import io.tollgate.engine.RequestScope;
import io.tollgate.engine.RulesHolder;
import io.tollgate.engine.TollgateGate;
import io.tollgate.instrumentation.container.ContainerRequests;
import io.tollgate.limiters.Clock;
import io.tollgate.rules.RuleSet;
import io.tollgate.rules.RuleSetFactory;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A request that no rule in force can apply to is let go by its entry point as if the agent were
 * absent (issue 29 item 2): its URI read, and nothing else asked of it, nothing set on it, no
 * request context made for the thread, nothing allocated; while a request that some rule may
 * apply to (by a method override, on every path, by its route template) is looked at as before.
 */
class NoRuleAppliesTest {

  @TempDir Path dir;

  /** The rules of each case, by name: each with {@code trusted-proxies: 1}, but {@code default}. */
  private static final Map<String, String> RULES = new HashMap<>();

  static {
    RULES.put("hello", rule("    match:\n      path: /hello\n    key: ip"));
    RULES.put("post-hello", rule("    match:\n      path: /hello\n      methods: [POST]\n    key: ip"));
    RULES.put("every-path", rule("    key: ip"));
    RULES.put("route", rule("    match:\n      path: /hello\n    key: route"));
    RULES.put("user", rule("    match:\n      path: /hello\n    key: principal"));
    RULES.put("tenants", tenants(40)); // past the scanned few: through the path index
    RULES.put("default", "rules:\n  - name: the-rule\n    match:\n      path: /hello\n"
        + "    key: ip\n    limit: 1000\n    period: 1m\n");
  }

  private static String rule(String body) {
    return "client-ip:\n  trusted-proxies: 1\nrules:\n  - name: the-rule\n" + body
        + "\n    limit: 1000\n    period: 1m\n";
  }

  private static String tenants(int n) {
    StringBuilder rules = new StringBuilder("client-ip:\n  trusted-proxies: 1\nrules:\n");
    for (int i = 0; i < n; i++) {
      rules.append("  - name: tenant-").append(i).append("\n    match:\n      path: /tenants/t")
          .append(i).append("/**\n    key: ip\n    limit: 1000\n    period: 1m\n");
    }
    return rules.toString();
  }

  @ParameterizedTest(name = "{0} {1} {2} {3} at the {4}: {5}")
  @CsvSource(delimiter = '|', value = {
    // rules    | method | path           | entry     | answer   | what it asked of the request
    "hello      | GET    | /other         | container | let go   | getRequestURI",
    "hello      | GET    | /other         | servlet   | let go   | getRequestURI",
    "hello      | GET    | /hello/more    | servlet   | let go   | getRequestURI",
    "hello      | GET    | /hello         | container | marked   | -",
    "hello      | GET    | /hello         | servlet   | marked   | -",
    // the path as the rules read it: /./hello is /hello
    "hello      | GET    | /./hello       | servlet   | marked   | -",
    "tenants    | GET    | /hello         | container | let go   | getRequestURI",
    "tenants    | GET    | /tenants/t7/x  | container | marked   | -",
    // a GET may be a POST as the application runs it (_method): its handler decides that
    "post-hello | GET    | /hello         | servlet   | marked   | -",
    "post-hello | GET    | /other         | servlet   | let go   | getRequestURI",
    "every-path | GET    | /other         | servlet   | marked   | -",
    // the route is known only at a framework's handler, which finds the request's context
    "route      | GET    | /other         | servlet   | marked   | -",
    // a rule keyed by the user: the thread's context is looked at first, then the path
    "user       | GET    | /other         | servlet   | let go   | getRequestURI",
    "user       | GET    | /other         | container | let go   | getRequestURI",
    // no proxy trusted: the proxy set-up advisor samples requests no rule applies to as well
    "default    | GET    | /other         | servlet   | let go   | getRequestURI getRemoteAddr getHeader getHeader",
  })
  void aRequestNoRuleAppliesToIsLetGoHavingOnlyItsUriRead(String rules, String method,
      String path, String entry, String answer, String asked) throws Exception {
    TollgateGate engine = engine(RULES.get(rules.trim()));
    FakeRequest request = new FakeRequest(method, path);
    AtomicReference<Object> scope = new AtomicReference<>();
    AtomicReference<RequestScope> context = new AtomicReference<>();
    // on a thread of its own, which has served no request before
    Thread thread = new Thread(() -> {
      scope.set(entry.equals("container")
          ? new ContainerRequests(engine).started(request.servletRequest, request.response)
          : new ServletRequests(engine).enter(request.servletRequest, request.response));
      context.set(engine.threadContext());
    });
    thread.start();
    thread.join();
    if (answer.equals("let go")) {
      assertEquals(asked, String.join(" ", request.asked), "what was asked of the request");
      assertNull(scope.get(), "no scope for the request's end");
      assertNull(context.get(), "no request context for the thread");
      assertTrue(request.attributes.isEmpty(), "attributes set: " + request.attributes);
    } else {
      assertEquals(Boolean.TRUE, request.attributes.get("io.tollgate.decided"), "the mark");
    }
    if (answer.equals("let go")) {
      assertTrue(request.responseCalls.isEmpty(), "asked of the response: " + request.responseCalls);
    }
  }

  /**
   * Nothing is allocated for a request no rule applies to, at its container's entry and at its
   * filters' and servlet's (a count of bytes, the same on a busy machine as on a quiet one).
   */
  @Test
  void aRequestNoRuleAppliesToAllocatesNothing() throws Exception {
    TollgateGate engine = engine(RULES.get("hello"));
    ContainerRequests container = new ContainerRequests(engine);
    ServletRequests servlets = new ServletRequests(engine);
    UriOnly request = new UriOnly("/other");
    HttpServletResponse response = new FakeRequest("GET", "/other").response;
    ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    long id = Thread.currentThread().getId();
    Object kept = null;
    for (int i = 0; i < 20_000; i++) { // warm: the first calls load and resolve
      kept = entries(container, servlets, request, response);
    }
    int requests = 10_000;
    long before = threads.getThreadAllocatedBytes(id);
    for (int i = 0; i < requests; i++) {
      kept = entries(container, servlets, request, response);
    }
    long allocated = threads.getThreadAllocatedBytes(id) - before;
    // a request that allocated even one small object would make 10,000 of them, 160 kB
    assertTrue(allocated < requests, allocated + " bytes for " + requests + " requests");
    assertNull(kept, "a scope for the request's end");
  }

  /**
   * A request a rule applies to has its path normalized and its rules looked up once, by the
   * question whether any rule applies, and decided on what that found (issue 29 item 2): what it
   * allocates beyond a decided request on a normal path of a short file (which looks up nothing
   * that allocates) is what one look-up allocates, not two. A long file's index splits the path
   * into new strings; a path that is not normal is copied normalized. Counted in bytes.
   */
  @ParameterizedTest(name = "{0} on {1}")
  @CsvSource(delimiter = '|', value = {
    // rules | path: decided, and what looking it up allocates
    "tenants | /tenants/t7/x", // the index's segments
    "hello   | /./hello",      // the normalized copy
    "tenants | /tenants/./t7/x", // both
  })
  void aDecidedRequestLooksItsPathUpOnce(String rules, String path) throws Exception {
    long base = bytesPerDecidedRequest(engine(unrefused(RULES.get("hello"))), "/hello");
    TollgateGate engine = engine(unrefused(RULES.get(rules.trim())));
    long decided = bytesPerDecidedRequest(engine, path.trim());
    long lookUp = bytesPerLookUp(engine, path.trim());
    assertTrue(lookUp >= 16, "a look-up that allocates: " + lookUp + " bytes");
    // twice the look-up would be lookUp more; allow half of one for the counts' rounding
    assertTrue(decided - base <= lookUp + lookUp / 2,
        "a decided request allocated " + decided + " bytes, " + (decided - base)
            + " more than on a path looked up for nothing, where one look-up is " + lookUp);
  }

  /** {@code yaml}'s rules with limits no count here reaches: every request allowed. */
  private static String unrefused(String yaml) {
    return yaml.replace("limit: 1000\n", "limit: 1000000000\n");
  }

  private static long bytesPerDecidedRequest(TollgateGate engine, String path) {
    ContainerRequests container = new ContainerRequests(engine);
    ServletRequests servlets = new ServletRequests(engine);
    UriOnly request = new UriOnly(path);
    HttpServletResponse response = new FakeRequest("GET", path).response;
    ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    long id = Thread.currentThread().getId();
    Object kept = null;
    for (int i = 0; i < 20_000; i++) {
      kept = entries(container, servlets, request, response);
    }
    assertTrue(kept instanceof RequestScope, "decided: " + kept);
    int requests = 10_000;
    long before = threads.getThreadAllocatedBytes(id);
    for (int i = 0; i < requests; i++) {
      kept = entries(container, servlets, request, response);
    }
    return (threads.getThreadAllocatedBytes(id) - before) / requests;
  }

  private static long bytesPerLookUp(TollgateGate engine, String uri) {
    RuleSet ruleSet = engine.rulesInForce();
    ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    long id = Thread.currentThread().getId();
    int[] kept = null;
    for (int i = 0; i < 20_000; i++) {
      kept = ruleSet.rulesOnPath(TollgateGate.pathOf(uri));
    }
    int lookUps = 10_000;
    long before = threads.getThreadAllocatedBytes(id);
    for (int i = 0; i < lookUps; i++) {
      kept = ruleSet.rulesOnPath(TollgateGate.pathOf(uri));
    }
    assertTrue(kept != RuleSet.NO_RULE, "a rule applies");
    return (threads.getThreadAllocatedBytes(id) - before) / lookUps;
  }

  /** A request through the container's entry, a filter inside it, and their ends. */
  private static Object entries(ContainerRequests container, ServletRequests servlets,
      UriOnly request, HttpServletResponse response) {
    Object first = container.started(request, response);
    Object second = servlets.enter(request, response);
    servlets.exit(second, null);
    container.ended(first, null);
    request.recycle(); // as the container recycles it for the next request
    return first != null ? first : second;
  }

  /**
   * A request whose URI, method, address, dispatch and one attribute are read and set without
   * allocating (a wrapper, not a proxy: a proxy allocates on each call).
   */
  private static final class UriOnly extends HttpServletRequestWrapper {
    private final String uri;
    private String attributeName;
    private Object attribute;

    UriOnly(String uri) {
      super(new FakeRequest("GET", uri).servletRequest);
      this.uri = uri;
    }

    @Override
    public String getRequestURI() {
      return uri;
    }

    @Override
    public String getMethod() {
      return "GET";
    }

    @Override
    public String getRemoteAddr() {
      return "198.51.100.7";
    }

    @Override
    public DispatcherType getDispatcherType() {
      return DispatcherType.REQUEST;
    }

    @Override
    public boolean isAsyncStarted() {
      return false;
    }

    @Override
    public Object getAttribute(String name) {
      return name.equals(attributeName) ? attribute : null;
    }

    @Override
    public void setAttribute(String name, Object value) {
      attributeName = name;
      attribute = value;
    }

    void recycle() {
      attributeName = null;
      attribute = null;
    }
  }

  private TollgateGate engine(String yaml) throws Exception {
    Path rules = Files.createTempFile(dir, "rules", ".yaml");
    Files.write(rules, yaml.getBytes(StandardCharsets.UTF_8));
    RulesHolder holder = new RulesHolder(new RuleSetFactory(Clock.system()));
    holder.useFile(rules.toString());
    return new TollgateGate(holder);
  }

  /** A servlet request and response that note every method asked of them. */
  private static final class FakeRequest {
    final Map<String, Object> attributes = new HashMap<>();
    final List<String> asked = new ArrayList<>();
    final List<String> responseCalls = new ArrayList<>();

    final HttpServletRequest servletRequest;
    final HttpServletResponse response;

    FakeRequest(String method, String uri) {
      servletRequest = ServletFakes.of(HttpServletRequest.class, (proxy, called, args) -> {
        String name = called.getName();
        asked.add(name);
        switch (name) {
          case "getDispatcherType": return DispatcherType.REQUEST;
          case "getAttribute": return attributes.get((String) args[0]);
          case "setAttribute": attributes.put((String) args[0], args[1]); return null;
          case "getMethod": return method;
          case "getRequestURI": return uri;
          case "getRemoteAddr": return "198.51.100.7";
          case "getServerName": return "localhost";
          default: return ServletFakes.nothing(called.getReturnType());
        }
      });
      response = ServletFakes.of(HttpServletResponse.class, (proxy, called, args) -> {
        responseCalls.add(called.getName());
        return ServletFakes.nothing(called.getReturnType());
      });
    }
  }
}
