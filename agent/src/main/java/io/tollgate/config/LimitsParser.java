package io.tollgate.config;

import io.tollgate.limiters.LimitSpec;
import static io.tollgate.config.YamlNodes.describe;
import static io.tollgate.config.YamlNodes.line;
import static io.tollgate.config.YamlNodes.suggest;

import io.tollgate.limiters.AlgorithmKind;
import io.tollgate.limiters.CalendarQuota;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * A rule's limits: {@code limit}, {@code period} and {@code burst}; several {@code limits}; the
 * {@code plans} that choose limits by a request header; or a {@code calendar} quota.
 */
final class LimitsParser {

  static final List<String> LIMIT_KEYS = Arrays.asList("limit", "period", "burst");
  static final List<String> CALENDAR_UNITS = Arrays.asList("day", "week", "month", "year");

  private final YamlNodes y;
  private final PlansParser plansParser;

  LimitsParser(YamlNodes y) {
    this.y = y;
    this.plansParser = new PlansParser(y, this);
  }

  /** The limits of a rule, as its keys give them, and the algorithm they leave it with. */
  static final class Limits {
    /** The rule's algorithm: a calendar quota makes it a fixed window. */
    final AlgorithmKind algorithm;
    final CalendarQuota.Unit calendar;
    final java.time.ZoneId zone;
    /** Of {@code limit:}/{@code period:}; 1 with {@code limits} or {@code plans}; null if wrong. */
    final Long limit;
    final Long period;
    final Long burst;
    /** The rule's limits (one for {@code limit:}), or null with plans or when wrong. */
    final List<LimitSpec> limits;
    final PlansConfig plans;
    /** Whether the rule gave {@code limits:}, a list. */
    final boolean listed;

    Limits(AlgorithmKind algorithm, CalendarQuota.Unit calendar, java.time.ZoneId zone, Long limit,
        Long period, Long burst, List<LimitSpec> limits, PlansConfig plans, boolean listed) {
      this.algorithm = algorithm;
      this.calendar = calendar;
      this.zone = zone;
      this.limit = limit;
      this.period = period;
      this.burst = burst;
      this.limits = limits;
      this.plans = plans;
      this.listed = listed;
    }

    /** Every limit of the rule, of every plan. */
    List<LimitSpec> all() {
      List<LimitSpec> all = new ArrayList<>();
      if (limits != null) {
        all.addAll(limits);
      }
      if (plans != null) {
        for (List<LimitSpec> l : plans.limits().values()) {
          all.addAll(l);
        }
      }
      return all;
    }
  }

  /**
   * The limits that the rule's keys {@code f} give, as {@code limit}/{@code period}/{@code burst},
   * {@code limits}, {@code plans} or a {@code calendar} quota (with its {@code time-zone}), for a
   * rule of {@code algorithm} ({@code algTuple} its key, or null when not given).
   */
  Limits parse(
      Map<String, NodeTuple> f, MappingNode map, AlgorithmKind algorithm, NodeTuple algTuple,
      String ctx) {
    NodeTuple limitTuple = f.get("limit");
    NodeTuple periodTuple = f.get("period");
    NodeTuple burstTuple = f.get("burst");
    NodeTuple limitsTuple = f.get("limits");
    NodeTuple plansTuple = f.get("plans");
    NodeTuple calendarTuple = f.get("calendar");

    // calendar quotas: the calendar sets the window
    CalendarQuota.Unit calendar = null;
    if (calendarTuple != null) {
      calendar = calendarUnit(calendarTuple, ctx);
      if (algTuple != null && algorithm != AlgorithmKind.FIXED_WINDOW) {
        y.problem(
            algTuple.getValueNode(),
            ctx + "a calendar quota is a fixed window on calendar boundaries; write 'algorithm: fixed-window' or leave algorithm out");
      }
      algorithm = AlgorithmKind.FIXED_WINDOW;
      if (periodTuple != null) {
        y.problem(
            periodTuple.getKeyNode(),
            ctx + "with 'calendar' the window is the calendar "
                + (calendar == null ? "unit" : ((ScalarNode) calendarTuple.getValueNode()).getValue().trim())
                + "; leave 'period' out");
      }
      if (burstTuple != null) {
        y.problem(burstTuple.getKeyNode(), ctx + "burst applies to token-bucket and gcra only, not to a calendar quota");
      }
      if (limitsTuple != null || plansTuple != null) {
        y.problem(
            (limitsTuple != null ? limitsTuple : plansTuple).getKeyNode(),
            ctx + "a calendar quota takes one 'limit'; '" + (limitsTuple != null ? "limits" : "plans")
                + "' cannot be combined with 'calendar'");
      }
    }
    java.time.ZoneId zone = zone(f.get("time-zone"), calendarTuple, ctx);

    Long limit = null;
    Long period = null;
    Long burst = null;
    List<LimitSpec> limits = null;
    PlansConfig plans = null;
    if (plansTuple != null || limitsTuple != null) {
      NodeTuple other = limitTuple != null ? limitTuple : periodTuple != null ? periodTuple : burstTuple;
      String which = plansTuple != null ? "plans" : "limits";
      if (plansTuple != null && limitsTuple != null) {
        y.problem(limitsTuple.getKeyNode(), ctx + "give either 'limits' or 'plans' (each plan has its own limits), not both");
      } else if (other != null && calendarTuple == null) {
        y.problem(
            other.getKeyNode(),
            ctx + "give either '" + which + "' or limit/period/burst, not both; move '"
                + ((ScalarNode) other.getKeyNode()).getValue() + "' into " + which);
      }
      if (plansTuple != null) {
        plans = plansParser.parse(plansTuple.getValueNode(), ctx);
      } else {
        limits = list(limitsTuple.getValueNode(), "limits", ctx);
        if (limits != null && algorithm == AlgorithmKind.CONCURRENCY && limits.size() > 1) {
          y.problem(limitsTuple.getKeyNode(), ctx + "the concurrency algorithm takes one limit (requests in progress at once); use 'limit'");
        }
      }
    } else {
      if (limitTuple == null) {
        if (!y.misspelt(map, RuleParser.RULE_KEYS, "limits", "plans")) {
          y.problem(
              map,
              ctx + "limit is missing; give the number of requests allowed per period, for example 'limit: 100'");
        }
      } else {
        limit = y.positive(limitTuple.getValueNode(), "limit", ctx);
      }
      if (calendarTuple != null) {
        period = calendar == null ? null : 1L; // set by the calendar unit below
      } else if (periodTuple == null) {
        if (!y.misspelt(map, RuleParser.RULE_KEYS, "limits", "plans", "calendar")) {
          y.problem(
              map,
              ctx + "period is missing; give the length of the limit's time window, for example 'period: 1m'");
        }
      } else {
        period = y.duration(periodTuple.getValueNode(), "period", ctx);
      }
      if (burstTuple != null) {
        burst = y.positive(burstTuple.getValueNode(), "burst", ctx);
        if (algorithm != AlgorithmKind.TOKEN_BUCKET && algorithm != AlgorithmKind.GCRA) {
          y.problem(
              burstTuple.getKeyNode(),
              ctx + "burst applies to token-bucket and gcra only (" + algorithm.yamlName()
                  + " allows at most 'limit' in a window); remove it, or use one of them");
        }
      }
      if (limit != null && period != null) {
        limits = Collections.singletonList(
            burst == null ? LimitSpec.of(limit, period) : new LimitSpec(limit, period, burst));
      }
    }
    if (limits != null || plans != null) {
      limit = limit == null ? 1L : limit;
      period = period == null ? 1L : period;
    }
    return new Limits(
        algorithm, calendar, zone, limit, period, burst, limits, plans, limitsTuple != null);
  }

  /** A limit ({@code {limit: 10, period: 1s}}) or a list of them. */
  List<LimitSpec> list(Node node, String what, String ctx) {
    List<Node> items;
    if (node instanceof SequenceNode) {
      items = ((SequenceNode) node).getValue();
      if (items.isEmpty()) {
        y.problem(node, ctx + what + " is an empty list; give at least one {limit: N, period: D}");
        return null;
      }
    } else if (node instanceof MappingNode) {
      items = Collections.singletonList(node);
    } else {
      y.problem(node, ctx + what + " must be a list of limits such as [{limit: 10, period: 1s}, {limit: 1000, period: 1h}], got " + describe(node));
      return null;
    }
    List<LimitSpec> out = new ArrayList<>();
    Map<Long, Node> periods = new HashMap<>();
    boolean ok = true;
    for (Node itemNode : items) {
      if (!(itemNode instanceof MappingNode)) {
        y.problem(itemNode, ctx + "each entry of " + what + " must be a mapping such as {limit: 10, period: 1s}, got " + describe(itemNode));
        ok = false;
        continue;
      }
      Map<String, NodeTuple> lf = y.fields((MappingNode) itemNode, LIMIT_KEYS, "in " + what + " of " + ctx.substring(0, ctx.length() - 2), what + ".");
      Long l = null;
      Long p = null;
      Long b = null;
      if (lf.get("limit") == null) {
        if (!y.misspelt((MappingNode) itemNode, LIMIT_KEYS, "limit")) {
          y.problem(itemNode, ctx + "an entry of " + what + " has no limit; write {limit: N, period: D}");
        }
      } else {
        l = y.positive(lf.get("limit").getValueNode(), what + " limit", ctx);
      }
      if (lf.get("period") == null) {
        if (!y.misspelt((MappingNode) itemNode, LIMIT_KEYS, "period")) {
          y.problem(itemNode, ctx + "an entry of " + what + " has no period; write {limit: N, period: D}");
        }
      } else {
        p = y.duration(lf.get("period").getValueNode(), what + " period", ctx);
      }
      if (lf.get("burst") != null) {
        b = y.positive(lf.get("burst").getValueNode(), what + " burst", ctx);
      }
      if (l == null || p == null) {
        ok = false;
        continue;
      }
      Node first = periods.put(p, itemNode);
      if (first != null) {
        y.problem(
            itemNode,
            ctx + "two entries of " + what + " have the period " + Durations.format(p)
                + " (the first on line " + line(first) + "); keep one limit per period");
        ok = false;
        continue;
      }
      out.add(b == null ? LimitSpec.of(l, p) : new LimitSpec(l, p, b));
    }
    return ok ? out : null;
  }

  /** {@code calendar:} day, week, month or year; null when wrong. */
  private CalendarQuota.Unit calendarUnit(NodeTuple calendarTuple, String ctx) {
    String unit = y.string(calendarTuple.getValueNode(), "calendar", "one of " + String.join(", ", CALENDAR_UNITS), ctx);
    if (unit == null) {
      return null;
    }
    String u = unit.trim().toLowerCase(Locale.ROOT);
    if (CALENDAR_UNITS.contains(u)) {
      return CalendarQuota.Unit.valueOf(u.toUpperCase(Locale.ROOT));
    }
    String hint = suggest(u, CALENDAR_UNITS);
    y.problem(
        calendarTuple.getValueNode(),
        ctx + "calendar must be one of " + String.join(", ", CALENDAR_UNITS) + ", got "
            + describe(calendarTuple.getValueNode())
            + (hint != null ? "; did you mean '" + hint + "'?" : ""));
    return null;
  }

  /** {@code time-zone:} of a calendar quota; null when not given (UTC) or wrong. */
  private java.time.ZoneId zone(NodeTuple zoneTuple, NodeTuple calendarTuple, String ctx) {
    if (zoneTuple == null) {
      return null;
    }
    String z = y.string(zoneTuple.getValueNode(), "time-zone", "a time zone such as Europe/Paris or UTC", ctx);
    if (calendarTuple == null) {
      y.problem(zoneTuple.getKeyNode(), ctx + "time-zone applies to calendar quotas only; add 'calendar: day' (or week, month, year) or remove it");
    } else if (z != null) {
      try {
        return java.time.ZoneId.of(z.trim());
      } catch (java.time.DateTimeException e) {
        y.problem(
            zoneTuple.getValueNode(),
            ctx + "time-zone '" + z.trim() + "' is not a time zone; write a region such as Europe/Paris, America/New_York, or UTC");
      }
    }
    return null;
  }

}
