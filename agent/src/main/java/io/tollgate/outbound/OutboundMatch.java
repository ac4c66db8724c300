package io.tollgate.outbound;

import io.tollgate.config.OutboundRuleConfig;
import io.tollgate.config.PathGlob;
import io.tollgate.rules.ValueGlob;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which calls an outbound rule applies to: the destination's host (a glob), port, path (a glob) and
 * method, each "any" when the rule leaves it out.
 */
final class OutboundMatch {

  private final ValueGlob[] hosts;
  private final int port;
  private final PathGlob[] paths;
  private final Set<String> methods;

  OutboundMatch(OutboundRuleConfig rule) {
    List<String> h = rule.hosts();
    this.hosts = new ValueGlob[h.size()];
    for (int i = 0; i < hosts.length; i++) {
      hosts[i] = ValueGlob.ignoringCase(h.get(i));
    }
    this.port = rule.port();
    List<String> p = rule.paths();
    this.paths = new PathGlob[p.size()];
    for (int i = 0; i < paths.length; i++) {
      paths[i] = PathGlob.compile(p.get(i));
    }
    this.methods = rule.methods();
  }

  boolean matches(OutboundCall call) {
    if (port != 0 && call.port() != port) {
      return false;
    }
    if (!methods.isEmpty() && !methods.contains(call.method().toUpperCase(Locale.ROOT))) {
      return false;
    }
    return matchesHost(call.host()) && matchesPath(call.path());
  }

  private boolean matchesHost(String host) {
    if (hosts.length == 0) {
      return true;
    }
    for (ValueGlob glob : hosts) {
      if (glob.matches(host)) {
        return true;
      }
    }
    return false;
  }

  private boolean matchesPath(String path) {
    if (paths.length == 0) {
      return true;
    }
    // Path globs match the normalised form, without the trailing '/' (as inbound rules do).
    String p = path == null || path.isEmpty() ? "/" : path;
    if (p.length() > 1 && p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    for (PathGlob glob : paths) {
      if (glob.matches(p)) {
        return true;
      }
    }
    return false;
  }
}
