package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/** Waiting and counting helpers shared by the operations ITs. */
final class ItSupport {

  static final Duration RELOAD_TIMEOUT = Duration.ofSeconds(30);

  private ItSupport() {}

  /**
   * A JMX connection to a forked app, through the local management agent its JVM starts on
   * attach, once the MBeans {@code names} are registered (or 30 s have passed). The caller closes
   * it.
   */
  static JMXConnector jmx(ForkedApp app, ObjectName... names) throws Exception {
    VirtualMachine vm = VirtualMachine.attach(Long.toString(app.pid()));
    String address;
    try {
      address = vm.startLocalManagementAgent();
    } finally {
      vm.detach();
    }
    JMXConnector connector = JMXConnectorFactory.connect(new JMXServiceURL(address));
    MBeanServerConnection server = connector.getMBeanServerConnection();
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!allRegistered(server, names) && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    return connector;
  }

  private static boolean allRegistered(MBeanServerConnection server, ObjectName... names)
      throws IOException {
    for (ObjectName name : names) {
      if (!server.isRegistered(name)) {
        return false;
      }
    }
    return true;
  }

  /** How many agent log lines contain {@code text}. */
  static long count(ForkedApp app, String text) {
    return app.agentLog().stream().filter(l -> l.contains(text)).count();
  }

  /** Waits until at least {@code n} agent log lines contain {@code text}; returns the last one. */
  static String awaitCount(ForkedApp app, String text, long n, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      List<String> matching = new ArrayList<>();
      for (String line : app.agentLog()) {
        if (line.contains(text)) {
          matching.add(line);
        }
      }
      if (matching.size() >= n) {
        return matching.get(matching.size() - 1);
      }
      Thread.sleep(100);
    }
    throw new AssertionError(n + " agent lines containing '" + text + "' expected within "
        + timeout + "; output:\n" + String.join("\n", app.output()));
  }

  /** Sends {@code n} GETs and returns their status codes. */
  static List<Integer> statuses(ForkedApp app, String path, int n)
      throws IOException, InterruptedException {
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      statuses.add(app.get(path).statusCode());
    }
    return statuses;
  }

  /** Asserts {@code allowed} 200s followed by {@code refused} 429s. */
  static void assertAllowedThenRefused(ForkedApp app, String path, int allowed, int refused)
      throws IOException, InterruptedException {
    List<Integer> expected = new ArrayList<>();
    for (int i = 0; i < allowed; i++) {
      expected.add(200);
    }
    for (int i = 0; i < refused; i++) {
      expected.add(429);
    }
    assertEquals(expected, statuses(app, path, allowed + refused),
        "statuses of GET " + path + "; agent log:\n" + String.join("\n", app.agentLog()));
  }

  static String header(HttpResponse<String> response, String name) {
    return response.headers().firstValue(name).orElse(null);
  }
}
