package io.tollgate.diagnostics.status;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code status --json}, for scripts: the snapshot as the agent wrote it, with each counter's
 * rate per second beside its total ({@code perSecond}, null when there is no rate to give) and
 * the interval the rates are over. One line, so that {@code --watch --json} prints one object per
 * refresh.
 */
public final class StatusJson {

  private StatusJson() {}

  public static String render(StatusView view) {
    Map<String, Object> json = view.current.toJsonObject();
    json.put("intervalSeconds", view.intervalSeconds());
    @SuppressWarnings("unchecked")
    List<Object> rules = (List<Object>) json.get("rules");
    for (int i = 0; i < rules.size(); i++) {
      RuleStatus rule = view.current.rules.get(i);
      Map<String, Object> perSecond = new LinkedHashMap<>();
      for (String counter : rule.counters.keySet()) {
        perSecond.put(counter, view.rate(rule, counter));
      }
      Snapshots.objectOf(rules.get(i)).put("perSecond", perSecond);
      if (rule.leases()) {
        Map<String, Object> leasesPerSecond = new LinkedHashMap<>();
        for (String counter : rule.leases.keySet()) {
          leasesPerSecond.put(counter, view.leaseRate(rule, counter));
        }
        Snapshots.objectOf(rules.get(i)).put("leasesPerSecond", leasesPerSecond);
      }
    }
    @SuppressWarnings("unchecked")
    List<Object> outbound = (List<Object>) json.get("outbound");
    for (int i = 0; i < outbound.size(); i++) {
      OutboundStatus rule = view.current.outbound.get(i);
      Map<String, Object> perSecond = new LinkedHashMap<>();
      for (String counter : rule.counters.keySet()) {
        perSecond.put(counter, view.rate(rule, counter));
      }
      Snapshots.objectOf(outbound.get(i)).put("perSecond", perSecond);
    }
    if (view.current.backend.isRedis()) {
      Map<String, Object> perSecond = new LinkedHashMap<>();
      for (String counter : view.current.backend.counters.keySet()) {
        perSecond.put(counter, view.backendRate(counter));
      }
      Snapshots.objectOf(json.get("backend")).put("perSecond", perSecond);
    }
    json.put("ok", !view.hasProblems());
    return Json.write(json);
  }
}
