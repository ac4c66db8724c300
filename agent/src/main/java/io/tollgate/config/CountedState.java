package io.tollgate.config;

import io.tollgate.limiters.AlgorithmKind;
import io.tollgate.limiters.LimitSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * What a reload does to a rule's counts, setting by setting: the one place that says which fields
 * of a rule's parts (and of the file) are its counted state. The reload compares what this class
 * derives from the rule before and after ({@link OfFile#ofBudget}, {@link OfFile#carriedOverBy},
 * {@link OfFile#ofPenaltyBoxes}), never a hand-written list, so a setting is counted state exactly
 * when its row below says so; {@code CountedStateTest} fails, naming the field, when a field of a
 * part has no row, and proves each row through a real reload.
 *
 * <p>A rule keeps three kinds of state across a reload: its budgets (what each key used), its
 * penalty boxes ({@code penalty}) and its per-client shares (the permits each client holds). A row
 * says what a change of its setting does to the budgets ({@link OnChange}), and whether it also
 * empties the penalty boxes or starts the per-client shares afresh.
 */
public final class CountedState {

  /** What a change of a setting does to what each key had used of the rule's budgets. */
  public enum OnChange {
    /** Not counted state: each budget keeps its very store, and so its counts as they are. */
    KEEPS_COUNTS,
    /**
     * A parameter of the counting: a new budget takes over what each key had used, counted against
     * the new parameters (locally the new store inherits the old one's keys; on Redis the keys stay).
     */
    CARRIES_COUNTS_OVER,
    /** What the counts are of (which key, which algorithm, where they live): they start afresh. */
    STARTS_AFRESH
  }

  /**
   * The rule whose state is compared, in its file; with the limit of one of its budgets when the
   * budgets are compared.
   */
  static final class Of {
    final RuleConfig rule;
    final RulesConfig file;
    /** The budget's own limit, or null for the penalty boxes, which are the rule's. */
    final LimitSpec limit;

    Of(RuleConfig rule, RulesConfig file, LimitSpec limit) {
      this.rule = rule;
      this.file = file;
      this.limit = limit;
    }

    boolean onRedis() {
      return file.backend() == Backend.REDIS;
    }

    boolean adaptive() {
      return rule.algorithm() == AlgorithmKind.ADAPTIVE_CONCURRENCY;
    }
  }

  /** One row: a field of a part, what changing it does, and what of it is compared. */
  public static final class Setting {
    private final Class<?> part;
    private final String field;
    private final OnChange budgets;
    private final boolean penaltyBoxes;
    private final boolean clientShares;
    private final Function<Of, Object> value;
    /** A {@code redis:} row's value read from the section alone; null for the other rows. */
    private final Function<RedisSettings, Object> ofRedis;
    /** {@link #name()}, made once: a fingerprint of each of 10,000 rules would make it again. */
    private final String name;
    /**
     * Whether {@link #value} reads the file alone, never the rule nor the budget: the same for
     * every rule of a file, so rendered once per file ({@link OfFile}).
     */
    private final boolean ofFileAlone;

    private Setting(
        Class<?> part, String field, OnChange budgets, boolean penaltyBoxes, boolean clientShares,
        Function<Of, Object> value) {
      this(part, field, budgets, penaltyBoxes, clientShares, value, null, false);
    }

    private Setting(
        Class<?> part, String field, OnChange budgets, boolean penaltyBoxes, boolean clientShares,
        Function<Of, Object> value, Function<RedisSettings, Object> ofRedis,
        boolean ofFileAlone) {
      this.part = part;
      this.field = field;
      this.budgets = budgets;
      this.penaltyBoxes = penaltyBoxes;
      this.clientShares = clientShares;
      this.value = value;
      this.ofRedis = ofRedis;
      this.name = part.getSimpleName() + "." + field;
      this.ofFileAlone = ofFileAlone;
    }

    /** The class that declares the field: a part of a rule, or of the file. */
    public Class<?> part() {
      return part;
    }

    /** The field's name in {@link #part()}. */
    public String field() {
      return field;
    }

    /** What a change of this setting does to the budgets' counts. */
    public OnChange budgets() {
      return budgets;
    }

    /** Whether a change of this setting empties the rule's penalty boxes. */
    public boolean penaltyBoxes() {
      return penaltyBoxes;
    }

    /**
     * Whether a change of this setting starts the per-client shares afresh (the requests in flight
     * then give back to the share they took from, not to the new one).
     */
    public boolean clientShares() {
      return clientShares;
    }

    /** Part.field, as the test and the messages name it. */
    public String name() {
      return name;
    }

    @Override
    public String toString() {
      return name() + ": " + budgets
          + (penaltyBoxes ? ", empties the penalty boxes" : "")
          + (clientShares ? ", starts the per-client shares afresh" : "");
    }
  }

  /**
   * The table, made at the first fingerprint or the first look at the rows, not when the rules are
   * first built: its 33 values are method references, each a class the JVM spins, ~10% of the
   * agent's start-up thread on Spring Boot 3, for fingerprints that only a reload compares (a
   * class's static fields are set when it is first used: this holder's, at the first use of a row).
   */
  private static final class Table {
    static final Function<Of, Object> NOT_COMPARED = of -> null;

    static final List<Setting> SETTINGS = Collections.unmodifiableList(Arrays.asList(
        // Where the rule is written.
        keeps(RuleConfig.class, "line"),
        keeps(RuleConfig.class, "keyLines"),
        // The rule's name: everything a reload keeps is found by it.
        new Setting(RuleConfig.class, "name", OnChange.STARTS_AFRESH, true, true,
            of -> of.rule.name()),

        // Which requests count: a request newly matched counts against the same budgets.
        keeps(RuleMatch.class, "paths"),
        keeps(RuleMatch.class, "pathGlobs"), // compiled from paths when read: changes with them
        keeps(RuleMatch.class, "methods"),
        keeps(RuleMatch.class, "route"),
        keeps(RuleMatch.class, "hosts"),
        keeps(RuleMatch.class, "headers"),
        keeps(RuleMatch.class, "skip"),

        // Which key a request counts against: another key's counts are not this one's.
        new Setting(Keying.class, "key", OnChange.STARTS_AFRESH, true, false, of -> of.rule.key()),
        // The normalization in effect: its default follows the key and count-when.
        new Setting(Keying.class, "normalize", OnChange.STARTS_AFRESH, true, false,
            of -> of.rule.keyNormalizeOrDefault()),
        // A request without the key counts under its fallback's values, in the same budgets.
        keeps(Keying.class, "fallback"),
        // How many keys a store holds: a new store takes the old one's keys over.
        new Setting(Keying.class, "maxKeys", OnChange.CARRIES_COUNTS_OVER, true, false,
            of -> of.rule.maxKeys()),

        // A state of one algorithm does not convert to another's.
        afresh(Counting.class, "algorithm", of -> of.rule.algorithm().yamlName()),
        // The budget's own limit (each budget is known by its plan and, among several, its period:
        // a budget of a new period or plan starts afresh, the others carry over).
        carries(Counting.class, "limits", of -> of.limit == null ? null
            : of.limit.limit() + "/" + of.limit.periodNanos() + "/" + of.limit.burst()),
        // A plan's limits are its budgets' limits, compared above; the plan header picks one.
        carries(Counting.class, "plans", NOT_COMPARED),
        carries(Counting.class, "maxDelayNanos", of -> of.rule.maxDelayNanos()),
        // A calendar quota's windows and a period's do not convert; one unit's to another's do.
        afresh(Counting.class, "calendar", of -> of.rule.calendar() != null),
        carries(Counting.class, "calendar", of -> of.rule.calendar()),
        carries(Counting.class, "timeZone", of -> of.rule.timeZone()),

        // Embedded in the adaptive algorithm, whose store is then new: adaptive-concurrency only.
        carries(AdaptiveSettings.class, "min", of -> of.adaptive() ? of.rule.adaptiveMin() : null),
        carries(AdaptiveSettings.class, "initial",
            of -> of.adaptive() ? of.rule.adaptiveInitial() : null),
        carries(AdaptiveSettings.class, "max", of -> of.adaptive() ? of.rule.adaptiveMax() : null),
        carries(AdaptiveSettings.class, "maxWaitNanos",
            of -> of.adaptive() ? of.rule.maxWaitNanos() : null),

        // What one client may hold of the permits: the shares, not the counts.
        new Setting(PerClientSettings.class, "percent", OnChange.KEEPS_COUNTS, false, true,
            NOT_COMPARED),
        new Setting(PerClientSettings.class, "key", OnChange.KEEPS_COUNTS, false, true,
            NOT_COMPARED),

        // What a request is charged, from its next request on.
        keeps(Charging.class, "cost"),
        keeps(Charging.class, "costHeader"),
        // (through key-normalize's default it may change the key: see Keying.normalize)
        keeps(Charging.class, "countWhen"),

        // Whether the rule refuses: counted alike; adaptive-concurrency's algorithm embeds it.
        carries(Enforcement.class, "mode", CountedState::adaptiveShadow),
        // On Redis, the store that decides when Redis cannot be reached.
        new Setting(Enforcement.class, "onFailure", OnChange.STARTS_AFRESH, true, false,
            of -> of.onRedis() ? of.rule.onFailure() : null),

        // What the client is told.
        keeps(Responding.class, "quotaHeaders"),
        keeps(Responding.class, "partitionKey"),
        keeps(Responding.class, "refusal"),

        // Who is never limited: the others' counts stay.
        keeps(AllowConfig.class, "cidrs"),
        keeps(AllowConfig.class, "keys"),

        // The penalty boxes, not the budgets.
        new Setting(PenaltyConfig.class, "after", OnChange.KEEPS_COUNTS, true, false,
            of -> of.rule.penalty() == null ? null : of.rule.penalty().after()),
        new Setting(PenaltyConfig.class, "withinNanos", OnChange.KEEPS_COUNTS, true, false,
            of -> of.rule.penalty() == null ? null : of.rule.penalty().withinNanos()),
        new Setting(PenaltyConfig.class, "boxForNanos", OnChange.KEEPS_COUNTS, true, false,
            of -> of.rule.penalty() == null ? null : of.rule.penalty().boxForNanos()),

        // The file: the client address that keys are made of, and where counts live.
        afreshForTheFile(ClientIpSettings.class, "trustedProxyHops",
            file -> file.clientIp().trustedProxyHops()),
        afreshForTheFile(ClientIpSettings.class, "trustedProxyCidrs",
            file -> file.clientIp().trustedProxyCidrs()),
        afreshForTheFile(ClientIpSettings.class, "ipv6Prefix",
            file -> file.clientIp().ipv6Prefix()),
        afreshForTheFile(RulesConfig.class, "backend", RulesConfig::backend),
        // On Redis: the connection and the stores' options decide where counts live and how they
        // are kept; the timings are applied to the kept connection and keep every count.
        onRedis(RedisSettings.class, "uri",
            r -> Integer.toHexString(String.valueOf(r.uri()).hashCode())), // no password in memory
        onRedis(RedisSettings.class, "cluster", r -> Integer.toHexString(r.cluster().hashCode())),
        onRedis(RedisSettings.class, "tlsCaFile", RedisSettings::tlsCaFile),
        onRedis(RedisSettings.class, "verifyPeer", RedisSettings::verifyPeer),
        onRedis(RedisSettings.class, "refusalCache", RedisSettings::refusalCache),
        onRedis(RedisSettings.class, "leaseTokens", RedisSettings::leaseTokens),
        keeps(RedisSettings.class, "timeoutNanos"),
        keeps(RedisSettings.class, "maxWaitNanos"),
        keeps(RedisSettings.class, "maxWaitingThreads"),
        carries(RulesConfig.class, "mode", CountedState::adaptiveShadow),
        keeps(RulesConfig.class, "headers"),
        keeps(RulesConfig.class, "response"),
        // Where the file is, and its other rules and outbound rules: each rule's state is its own.
        keeps(RulesConfig.class, "source"),
        keeps(RulesConfig.class, "keyLines"),
        keeps(RulesConfig.class, "rules"),
        keeps(RulesConfig.class, "outbound")));

    /** The rows a budget's fingerprint compares: those that start its counts afresh or carry. */
    static final Setting[] BUDGET_ROWS = counted(false, true);
    /** The rows that say whether a budget's counts can be carried over: those that start afresh. */
    static final Setting[] CARRY_ROWS = counted(false, false);
    /** The rows that empty the penalty boxes. */
    static final Setting[] PENALTY_ROWS = counted(true, false);
  }

  private CountedState() {}

  /** Every row, in the order above. */
  public static List<Setting> settings() {
    return Table.SETTINGS;
  }

  /**
   * The fingerprints of the rules of {@code file} ({@link OfFile#ofBudget}, {@link
   * OfFile#carriedOverBy}, {@link OfFile#ofPenaltyBoxes}), with the values of the rows that read
   * the file alone (its {@code client-ip}, {@code backend} and {@code redis} rows) made once: for
   * a file of 10,000 rules they were made 20,000 times, the same each time.
   */
  public static OfFile ofFile(RulesConfig file) {
    return new OfFile(file);
  }

  /** The fingerprints of one file's rules: see {@link #ofFile}. */
  public static final class OfFile {
    private final RulesConfig file;
    /**
     * Per row of {@link Table#BUDGET_ROWS} (and so on): the text of its value once made, for the
     * rows of the file alone. Made at the first fingerprint that reads it (a file without rules
     * reads none), and so the arrays: a file whose fingerprints no reload compares makes neither
     * them nor the table. Fingerprints are made when a reload compares them, so maybe long after
     * the build and on another thread than it: the three methods below are synchronized.
     */
    private String[] budgetValues;
    private String[] carryValues;
    private String[] penaltyValues;
    /**
     * Every fingerprint of the file is written here, then copied out: one builder of ~16 bytes a
     * row each was ~10% of what a first load of 10,000 rules allocated, for strings a third as
     * long.
     */
    private final StringBuilder text = new StringBuilder(256);

    private OfFile(RulesConfig file) {
      this.file = file;
    }

    /**
     * Everything that defines one budget's counting: a reload that gives the same keeps the
     * budget's very store.
     */
    public synchronized String ofBudget(RuleConfig rule, String budgetId, LimitSpec limit) {
      if (budgetValues == null) {
        budgetValues = new String[Table.BUDGET_ROWS.length];
      }
      return join(text, "budget ", budgetId, new Of(rule, file, limit), Table.BUDGET_ROWS,
          budgetValues);
    }

    /**
     * What a budget's counts need to be carried over a reload that changes its parameters: the
     * same budget, counting the same keys the same way in the same place. Where it differs, the
     * budget starts afresh.
     */
    public synchronized String carriedOverBy(RuleConfig rule, String budgetId) {
      if (carryValues == null) {
        carryValues = new String[Table.CARRY_ROWS.length];
      }
      return join(text, "budget ", budgetId, new Of(rule, file, null), Table.CARRY_ROWS,
          carryValues);
    }

    /**
     * Everything that defines the rule's penalty boxes: a reload that gives the same keeps them.
     */
    public synchronized String ofPenaltyBoxes(RuleConfig rule) {
      if (penaltyValues == null) {
        penaltyValues = new String[Table.PENALTY_ROWS.length];
      }
      return join(text, "penalty", "", new Of(rule, file, null), Table.PENALTY_ROWS,
          penaltyValues);
    }
  }

  /**
   * What of a {@code redis:} section decides where counts live and how the stores are built: the
   * values of its rows that start the counts afresh (not its timings). See {@link
   * RedisSettings#storeFingerprint}, which the outbound rules' stores compare.
   */
  static String ofRedis(RedisSettings redis) {
    List<String> values = new ArrayList<>();
    for (Setting s : Table.SETTINGS) {
      if (s.ofRedis != null && s.budgets == OnChange.STARTS_AFRESH) {
        values.add(s.name() + "=" + s.ofRedis.apply(redis));
      }
    }
    return "redis|" + String.join("|", values);
  }

  /**
   * Between the values of a fingerprint: a control character that no setting's value holds (rule
   * names, key parts and durations cannot, and a path or address with it is refused anyway).
   */
  private static final char BETWEEN = '\u001f';

  /**
   * The rows that define the state, with a value to compare, in the order above: the budgets' rows
   * that start afresh (and, with {@code parameters}, those that carry over), or the rows that empty
   * the penalty boxes. Chosen once: every rule of a file is fingerprinted against the same rows.
   */
  private static Setting[] counted(boolean penaltyBoxes, boolean parameters) {
    List<Setting> rows = new ArrayList<>();
    for (Setting s : Table.SETTINGS) {
      boolean counted =
          penaltyBoxes
              ? s.penaltyBoxes
              : s.budgets == OnChange.STARTS_AFRESH
                  || (parameters && s.budgets == OnChange.CARRIES_COUNTS_OVER);
      if (counted && s.value != Table.NOT_COMPARED) {
        rows.add(s);
      }
    }
    return rows.toArray(new Setting[0]);
  }

  /**
   * {@code prefix}, then the value of each of {@code rows} for {@code of} (those of the file alone
   * made once into {@code valuesOfTheFile}), in row order, written in {@code text}. The
   * values only: the rows are the same for every fingerprint of a kind, so their position says
   * which is which, and their names would make each of a 10,000-rule file's 20,000 fingerprints
   * ten times longer (they were half of what {@code validate} allocated).
   */
  /** {@code prefix} and {@code id} (written into {@code text}, not joined apart), then the rows. */
  private static String join(StringBuilder text, String prefix, String id, Of of, Setting[] rows,
      String[] valuesOfTheFile) {
    text.setLength(0);
    text.append(prefix).append(id);
    for (int i = 0; i < rows.length; i++) {
      text.append(BETWEEN);
      if (rows[i].ofFileAlone) {
        if (valuesOfTheFile[i] == null) {
          // the text StringBuilder.append(Object) writes: the fingerprint is the same
          valuesOfTheFile[i] = String.valueOf(rows[i].value.apply(of));
        }
        text.append(valuesOfTheFile[i]);
      } else {
        text.append(rows[i].value.apply(of));
      }
    }
    return text.toString();
  }

  /**
   * Whether an adaptive-concurrency rule only watches (its algorithm is made so); null for the
   * other algorithms, which count alike in shadow mode.
   */
  private static Object adaptiveShadow(Of of) {
    return of.adaptive() ? of.rule.effectiveMode(of.file.mode()) == Mode.SHADOW : null;
  }

  private static Setting onRedis(
      Class<?> part, String field, Function<RedisSettings, Object> value) {
    return new Setting(part, field, OnChange.STARTS_AFRESH, true, false,
        of -> of.onRedis() ? value.apply(of.file.redis()) : null, value, true);
  }

  /** A setting of the file that starts every rule's counts afresh and empties its penalty boxes. */
  private static Setting afreshForTheFile(
      Class<?> part, String field, Function<RulesConfig, Object> value) {
    return new Setting(part, field, OnChange.STARTS_AFRESH, true, false,
        of -> value.apply(of.file), null, true);
  }

  private static Setting keeps(Class<?> part, String field) {
    return new Setting(part, field, OnChange.KEEPS_COUNTS, false, false, Table.NOT_COMPARED);
  }

  private static Setting carries(Class<?> part, String field, Function<Of, Object> value) {
    return new Setting(part, field, OnChange.CARRIES_COUNTS_OVER, false, false, value);
  }

  private static Setting afresh(Class<?> part, String field, Function<Of, Object> value) {
    return new Setting(part, field, OnChange.STARTS_AFRESH, false, false, value);
  }
}
