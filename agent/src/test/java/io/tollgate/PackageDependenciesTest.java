package io.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The agent's packages depend on each other only downwards, as the table below says, with no
 * cycle: the engine knows no framework, each framework is a module under {@code instrumentation/}
 * that depends on the engine, and adding one touches only its own folder (and the list in {@code
 * agent.FrameworkModules}).
 *
 * <p>Read from the compiled classes by the JDK's own {@code jdeps}, so every reference counts:
 * imports, descriptors, constants, signatures.
 */
class PackageDependenciesTest {

  /**
   * Each layer (a package, with its sub-packages unless listed on their own) and the layers it may
   * use, bottom up. {@code instrumentation.*} is every framework module.
   */
  private static final Map<String, List<String>> ALLOWED = new LinkedHashMap<>();

  static {
    allow("bootstrap");
    // The agent's log: every layer may write a line, so it needs nothing but the bootstrap's sink.
    allow("logging", "bootstrap");
    allow("limiters", "logging");
    allow("http", "limiters", "logging");
    allow("keys", "http", "logging");
    // The rules file's addresses are checked by the very parser the agent keys requests with, so
    // that validate and the agent never disagree about one.
    allow("config", "limiters", "keys", "logging");
    // Advisors and metrics: they read keys and limiters, so they sit above them.
    allow("diagnostics", "bootstrap", "config", "keys", "http", "limiters", "logging");
    allow("stores", "limiters", "logging", "config");
    allow("rules", "config", "diagnostics", "http", "keys", "limiters", "logging", "stores");
    // The outbound rules' engine: paces the app's own calls, knows no HTTP client library.
    allow("outbound", "config", "diagnostics", "keys", "limiters", "logging", "rules", "stores");
    allow("engine", "bootstrap", "config", "diagnostics", "http", "keys", "limiters", "logging",
        "outbound", "rules", "stores");
    allow("instrumentation", "bootstrap", "diagnostics", "engine", "logging");
    allow("instrumentation.*", "bootstrap", "diagnostics", "engine", "http", "logging", "outbound",
        "rules", "instrumentation");
    // The access-log readers of `replay`: the JDK only, so that the replay (above the engine)
    // can use them and they can be tested on their own.
    allow("replay.log");
    // Replays access logs through the engine, as the agent decides live requests.
    allow("replay", "config", "diagnostics", "engine", "http", "keys", "limiters", "logging",
        "rules", "replay.log");
    allow("agent", "*");
    allow("cli", "*");
  }

  /**
   * Framework modules built on another one: Spring MVC, RESTEasy and CXF run on the servlet API,
   * and the containers' own entries (Tomcat's, Jetty's) decide through the servlet exchange.
   * (A module may also use its family's shared package: {@code jaxrs.resteasy} uses {@code jaxrs}.)
   */
  private static final Map<String, List<String>> MODULE_USES =
      Map.of(
          "instrumentation.spring", List.of("instrumentation.servlet"),
          "instrumentation.jaxrs.resteasy", List.of("instrumentation.servlet"),
          "instrumentation.jaxrs.cxf", List.of("instrumentation.servlet"),
          "instrumentation.container", List.of("instrumentation.servlet"),
          "instrumentation.container.tomcat", List.of("instrumentation.servlet"),
          "instrumentation.container.jetty", List.of("instrumentation.servlet"));

  /** What the layers below the framework modules must never reference. */
  private static final List<String> FRAMEWORK_PACKAGES =
      List.of("io.tollgate.instrumentation", "javax.servlet.", "jakarta.servlet.", "javax.ws.rs.",
          "jakarta.ws.rs.", "org.springframework.", "org.glassfish.", "org.jboss.resteasy.",
          "org.apache.cxf.", "org.apache.catalina.", "org.apache.http.", "org.apache.hc.",
          "okhttp3.");

  private static final List<String> FRAMEWORK_FREE =
      List.of("engine", "rules", "http", "stores", "keys", "limiters", "config", "diagnostics",
          "logging", "replay.log");

  /** Class to class, within io.tollgate, and to anything else. */
  private static final Map<String, Set<String>> CLASS_DEPENDENCIES = new TreeMap<>();

  private static void allow(String layer, String... uses) {
    ALLOWED.put(layer, Arrays.asList(uses));
  }

  @BeforeAll
  static void readTheCompiledClasses() throws Exception {
    ToolProvider jdeps =
        ToolProvider.findFirst("jdeps")
            .orElseThrow(() -> new AssertionError("this JDK has no jdeps tool"));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = jdeps.run(new PrintWriter(out), new PrintWriter(err),
        "-verbose:class", "-filter:none", classesDirectory().toString());
    assertEquals(0, exit, "jdeps: " + err);
    // "   io.tollgate.engine.TollgateGate   -> io.tollgate.http.HttpExchange   classes"
    Pattern edge = Pattern.compile("^\\s+(io\\.tollgate\\.\\S+)\\s+->\\s+(\\S+)");
    for (String line : out.toString().split("\\R")) {
      Matcher m = edge.matcher(line);
      if (m.find()) {
        CLASS_DEPENDENCIES.computeIfAbsent(m.group(1), k -> new TreeSet<>()).add(m.group(2));
      }
    }
    assertTrue(CLASS_DEPENDENCIES.size() > 100, "jdeps read the agent's classes: " + out);
  }

  @Test
  void noCycleBetweenPackages() {
    Map<String, Set<String>> graph = packageGraph();
    List<String> cycles = new ArrayList<>();
    for (Set<String> component : stronglyConnected(graph)) {
      if (component.size() > 1) {
        cycles.add("cycle between " + component + ", through: " + edgesWithin(component));
      }
    }
    assertEquals(List.of(), cycles);
  }

  @Test
  void eachLayerUsesOnlyTheLayersTheTableAllows() {
    List<String> forbidden = new ArrayList<>();
    for (Map.Entry<String, Set<String>> from : CLASS_DEPENDENCIES.entrySet()) {
      String fromPackage = packageOf(from.getKey());
      for (String to : from.getValue()) {
        if (!to.startsWith("io.tollgate.")) {
          continue;
        }
        String toPackage = packageOf(to);
        if (!toPackage.equals(fromPackage) && !allowed(fromPackage, toPackage)) {
          forbidden.add(shortName(from.getKey()) + " -> " + shortName(to) + " (" + layerOf(fromPackage)
              + " may use " + ALLOWED.get(layerOf(fromPackage)) + ")");
        }
      }
    }
    assertEquals(List.of(), forbidden);
  }

  @Test
  void theEngineAndTheLayersBelowItReferenceNoFramework() {
    List<String> forbidden = new ArrayList<>();
    for (Map.Entry<String, Set<String>> from : CLASS_DEPENDENCIES.entrySet()) {
      if (!FRAMEWORK_FREE.contains(layerOf(packageOf(from.getKey())))) {
        continue;
      }
      for (String to : from.getValue()) {
        for (String framework : FRAMEWORK_PACKAGES) {
          if (to.startsWith(framework)) {
            forbidden.add(shortName(from.getKey()) + " -> " + to);
          }
        }
      }
    }
    assertEquals(List.of(), forbidden);
  }

  private static boolean allowed(String fromPackage, String toPackage) {
    String from = layerOf(fromPackage);
    String to = layerOf(toPackage);
    if (from.equals(to) && !from.equals("instrumentation.*")) {
      return true; // a layer's own sub-packages (stores.redis, diagnostics.metrics)
    }
    List<String> uses = ALLOWED.get(from);
    if (uses == null) {
      return false;
    }
    if (uses.contains("*") || uses.contains(to)) {
      return true;
    }
    String fromModule = relative(fromPackage);
    String toModule = relative(toPackage);
    return to.equals("instrumentation.*")
        && (toModule.startsWith(fromModule + ".") // a module's own sub-packages
            || fromModule.startsWith(toModule + ".") // its family's shared code
            || MODULE_USES.getOrDefault(fromModule, List.of()).contains(toModule));
  }

  /** The table's entry for a package: its own, or the nearest enclosing one's. */
  private static String layerOf(String packageName) {
    String relative = relative(packageName);
    if (relative.startsWith("instrumentation.")) {
      return "instrumentation.*";
    }
    for (String candidate = relative; ; candidate = candidate.substring(0, candidate.lastIndexOf('.'))) {
      if (ALLOWED.containsKey(candidate)) {
        return candidate;
      }
      if (candidate.indexOf('.') < 0) {
        return relative;
      }
    }
  }

  private static Map<String, Set<String>> packageGraph() {
    Map<String, Set<String>> graph = new TreeMap<>();
    for (Map.Entry<String, Set<String>> from : CLASS_DEPENDENCIES.entrySet()) {
      String fromPackage = packageOf(from.getKey());
      Set<String> targets = graph.computeIfAbsent(fromPackage, k -> new TreeSet<>());
      for (String to : from.getValue()) {
        if (to.startsWith("io.tollgate.") && !packageOf(to).equals(fromPackage)) {
          targets.add(packageOf(to));
        }
      }
    }
    return graph;
  }

  /** Tarjan's algorithm: the sets of packages that all reach each other. */
  private static List<Set<String>> stronglyConnected(Map<String, Set<String>> graph) {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    Set<String> onStack = new LinkedHashSet<>();
    List<Set<String>> components = new ArrayList<>();
    int[] next = {0};
    for (String node : graph.keySet()) {
      if (!index.containsKey(node)) {
        connect(node, graph, index, low, stack, onStack, components, next);
      }
    }
    return components;
  }

  private static void connect(String node, Map<String, Set<String>> graph,
      Map<String, Integer> index, Map<String, Integer> low, Deque<String> stack,
      Set<String> onStack, List<Set<String>> components, int[] next) {
    index.put(node, next[0]);
    low.put(node, next[0]);
    next[0]++;
    stack.push(node);
    onStack.add(node);
    for (String target : graph.getOrDefault(node, Set.of())) {
      if (!index.containsKey(target)) {
        connect(target, graph, index, low, stack, onStack, components, next);
        low.put(node, Math.min(low.get(node), low.get(target)));
      } else if (onStack.contains(target)) {
        low.put(node, Math.min(low.get(node), index.get(target)));
      }
    }
    if (low.get(node).equals(index.get(node))) {
      Set<String> component = new TreeSet<>();
      String member;
      do {
        member = stack.pop();
        onStack.remove(member);
        component.add(relative(member));
      } while (!member.equals(node));
      components.add(component);
    }
  }

  /** The class references that make up a cycle, so that its message says what to change. */
  private static List<String> edgesWithin(Set<String> component) {
    List<String> edges = new ArrayList<>();
    for (Map.Entry<String, Set<String>> from : CLASS_DEPENDENCIES.entrySet()) {
      String fromPackage = relative(packageOf(from.getKey()));
      for (String to : from.getValue()) {
        if (!to.startsWith("io.tollgate.")) {
          continue;
        }
        String toPackage = relative(packageOf(to));
        if (component.contains(fromPackage) && component.contains(toPackage)
            && !fromPackage.equals(toPackage)) {
          edges.add(shortName(from.getKey()) + " -> " + shortName(to));
        }
      }
    }
    return edges;
  }

  private static String packageOf(String className) {
    return className.substring(0, className.lastIndexOf('.'));
  }

  private static String relative(String packageName) {
    return packageName.startsWith("io.tollgate.")
        ? packageName.substring("io.tollgate.".length())
        : packageName;
  }

  private static String shortName(String className) {
    return relative(className);
  }

  /** The agent's compiled main classes: where the engine's class was loaded from. */
  private static Path classesDirectory() throws URISyntaxException {
    Path engineClass =
        Paths.get(PackageDependenciesTest.class
            .getResource("/io/tollgate/engine/TollgateGate.class").toURI());
    return engineClass.getParent().getParent().getParent().getParent();
  }
}
