package io.tollgate.engine;

import io.tollgate.config.ConfigException;
import io.tollgate.config.ConfigProblem;
import io.tollgate.config.RulesConfig;
import io.tollgate.config.RulesFileParser;
import io.tollgate.config.RulesFileReader;
import io.tollgate.logging.AgentLog;
import io.tollgate.outbound.OutboundGate;
import io.tollgate.outbound.OutboundLimiter;
import io.tollgate.outbound.OutboundRules;
import io.tollgate.rules.Rule;
import io.tollgate.rules.RuleSet;
import io.tollgate.rules.RuleSetFactory;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The rules in force, and the only way to change them: load a file, validate it whole, and swap
 * atomically. A file that cannot be used changes nothing: the last good rules stay in force.
 */
public final class RulesHolder {

  private final RuleSetFactory factory;
  private volatile RuleSet current = RuleSet.EMPTY;
  /** The outbound rules of the same file, swapped with {@link #current}. */
  private volatile OutboundGate outbound = OutboundGate.EMPTY;
  private volatile String path;
  /** The last content read from {@link #path}, or null before the first read of it. */
  private byte[] lastContent;
  /**
   * What the watcher's previous poll read, or null: a change is applied once two polls in a row
   * read it, so that a file caught while it is being written is neither applied nor reported.
   */
  private byte[] lastPolled;
  /** Why the file could not be read at the last poll (said once), or null. */
  private String lastProblem;
  /** Why the file in use cannot be read now, as logged; null when it can. For {@code status}. */
  private volatile String readProblem;
  /** Why the file's content last read was not applied, as logged; null when it was. */
  private volatile String applyProblem;
  /** Counts {@link #useFile} switches, so that a read of a file no longer in use is dropped. */
  private long generation;
  /** The generation whose file's rules were last put in force. */
  private long appliedGeneration = -1;

  /**
   * How long {@link #useFile} waits between two reads of a file that must agree before it is
   * applied: long enough for a writer's truncate-then-write ({@code cat new.yaml > rules.yaml}) to
   * finish, short enough not to be noticed at start.
   */
  static final long SETTLE_PAUSE_MILLIS = 50;
  /** The reads {@link #useFile} makes at most; a file still changing is left to the watcher. */
  static final int SETTLE_READS = 10;

  /** Reads a rules file's bytes; {@link RulesFileReader#read} but where a test scripts them. */
  interface ContentReader {
    byte[] read(File file) throws RulesFileReader.UnreadableException;
  }

  private final ContentReader reader;
  private final long settlePauseMillis;

  public RulesHolder(RuleSetFactory factory) {
    // A class, not a method reference: made at start, where linking one spins a class
    this(factory, new ContentReader() {
      @Override
      public byte[] read(File file) throws RulesFileReader.UnreadableException {
        return RulesFileReader.read(file);
      }
    }, SETTLE_PAUSE_MILLIS);
  }

  RulesHolder(RuleSetFactory factory, ContentReader reader, long settlePauseMillis) {
    this.factory = factory;
    this.reader = reader;
    this.settlePauseMillis = settlePauseMillis;
  }

  public RuleSet current() {
    return current;
  }

  /** The outbound rules in force: limits on the app's own calls. */
  public OutboundLimiter outbound() {
    return outbound;
  }

  public String path() {
    return path;
  }

  /**
   * Switches to another rules file and loads it once two reads of it in a row agree, as the
   * watcher's polls must: at start and at {@code attach} the file may be in the middle of being
   * rewritten in place, when it reads empty or half-written (attaching three JVMs during such a
   * rewrite once left one of them with 0 rules). A file that does not hold still within {@link
   * #SETTLE_READS} reads is left to the watcher, which applies it once it does.
   *
   * @return whether rules from {@code newPath} are in force (here or by a watcher's poll meanwhile)
   */
  public boolean useFile(String newPath) {
    synchronized (this) {
      this.path = newPath;
      this.lastContent = null;
      this.lastPolled = null;
      this.lastProblem = null;
      this.readProblem = null;
      this.applyProblem = null;
      generation++;
    }
    reload(Settling.REREAD);
    synchronized (this) {
      return appliedGeneration == generation && newPath.equals(path);
    }
  }

  /**
   * Reads the file and applies it if its content changed since the last attempt. A file that
   * cannot be read is reported once, until it can be read again (and that is said too).
   *
   * <p>The file is read outside this object's lock: whatever a read meets, a thread switching the
   * file ({@code attach}) never waits for it.
   *
   * @return true when new rules were put in force
   */
  public boolean reloadIfChanged() {
    return reload(Settling.NONE);
  }

  /**
   * The watcher's poll: as {@link #reloadIfChanged}, but a changed content is applied (or
   * reported as unusable) only when the previous poll read the same bytes. Editors and {@code cat
   * new.yaml > rules.yaml} write in place: truncate, then write. A poll between the two reads an
   * empty file, or the first half of the new one, which may even parse as fewer rules; neither is
   * what the operator wrote. Waiting for the content to hold still for one poll costs a reload at
   * most one interval, and spares the operator a false ERROR or a moment of half their rules.
   *
   * @return true when new rules were put in force
   */
  public boolean reloadWhenSettled() {
    return reload(Settling.NEXT_POLL);
  }

  /** When a changed content is applied. */
  private enum Settling {
    /** At once. */
    NONE,
    /** When the previous poll read the same bytes (the watcher). */
    NEXT_POLL,
    /** When a second read, a moment later, reads the same bytes (start and attach). */
    REREAD
  }

  private boolean reload(Settling settling) {
    String file;
    long readGeneration;
    synchronized (this) {
      file = path;
      readGeneration = generation;
    }
    if (file == null) {
      return false;
    }
    Read read = read(file);
    boolean unsettled = false;
    if (settling == Settling.REREAD) {
      Read again = read;
      int reads = 1;
      do {
        read = again;
        if (!pause()) {
          return false;
        }
        again = read(file);
        reads++;
      } while (!again.sameAs(read) && reads < SETTLE_READS);
      unsettled = !again.sameAs(read);
      read = again;
    }
    byte[] content = read.content;
    String problem = read.problem;
    synchronized (this) {
      if (readGeneration != generation) {
        return false; // another file was put in use meanwhile, and read by that switch
      }
      readProblem = problem;
      if (problem != null) {
        if (!problem.equals(lastProblem)) {
          AgentLog.error(problem + keptRulesNote());
          lastProblem = problem;
        }
        return false;
      }
      boolean changed = lastContent == null || !Arrays.equals(content, lastContent);
      boolean notYet = changed && (unsettled
          || settling == Settling.NEXT_POLL && !Arrays.equals(content, lastPolled));
      lastPolled = content;
      if (unsettled) {
        AgentLog.info("the rules file " + file + " changed at each of " + SETTLE_READS + " reads;"
            + " it is applied once two polls read the same content" + keptRulesNote());
      }
      if (notYet) {
        return false; // read again at the next poll: applied if it has not changed meanwhile
      }
      boolean back = lastProblem != null;
      lastProblem = null;
      if (!changed) {
        if (back) {
          AgentLog.info("the rules file " + file + " can be read again; it is unchanged"
              + keptRulesNote());
        }
        return false;
      }
      if (back) {
        AgentLog.info("the rules file " + file + " can be read again");
      }
      boolean firstLoad = lastContent == null;
      lastContent = content;
      boolean applied = apply(new String(content, StandardCharsets.UTF_8), file, firstLoad);
      if (applied) {
        appliedGeneration = generation;
      }
      return applied;
    }
  }

  /** The file's content, or why it cannot be read. */
  private static final class Read {
    final byte[] content;
    final String problem;

    Read(byte[] content, String problem) {
      this.content = content;
      this.problem = problem;
    }

    boolean sameAs(Read other) {
      return Arrays.equals(content, other.content)
          && (problem == null ? other.problem == null : problem.equals(other.problem));
    }
  }

  private Read read(String file) {
    try {
      return new Read(reader.read(new File(file)), null);
    } catch (RulesFileReader.UnreadableException e) {
      return new Read(null, e.getMessage());
    }
  }

  /** Waits between two reads of the file; false when interrupted (the caller gives up). */
  private boolean pause() {
    if (settlePauseMillis <= 0) {
      return true;
    }
    try {
      Thread.sleep(settlePauseMillis);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private boolean apply(String yaml, String file, boolean firstLoad) {
    RuleSet previous = current;
    if ((!previous.isEmpty() || outbound.active()) && isBlank(yaml)) {
      // A file being rewritten (truncated, then written) reads this way for a moment, and so does
      // a deployment that lost its content: neither means "remove every limit".
      applyProblem = "the rules file " + file + " is empty (nothing but blanks and comments) and"
          + " was not applied" + keptRulesNote() + "; to remove every rule on purpose, write"
          + " 'rules: []'";
      AgentLog.error(applyProblem);
      return false;
    }
    RuleSet next;
    OutboundGate previousOutbound = outbound;
    OutboundGate nextOutbound;
    try {
      RulesConfig config = RulesFileParser.parse(yaml, file);
      OutboundRules.check(config);
      next = factory.build(config, previous);
      // On the backend the build prepared, before it is committed below.
      nextOutbound = OutboundRules.build(config, previousOutbound, factory);
    } catch (ConfigException e) {
      for (ConfigProblem problem : e.problems()) {
        AgentLog.error(problem.toString());
      }
      applyProblem = "the rules file " + file + " was not applied (" + e.problems().size()
          + " problem" + (e.problems().size() == 1 ? "" : "s")
          + (e.problems().isEmpty() ? "" : ", the first: " + e.problems().get(0)) + ")"
          + keptRulesNote();
      AgentLog.error("the rules file " + file + " was not applied (" + e.problems().size()
          + " problem" + (e.problems().size() == 1 ? "" : "s") + ")" + keptRulesNote());
      return false;
    } catch (RuntimeException e) {
      applyProblem = "the rules file " + file + " was not applied: " + e + keptRulesNote();
      AgentLog.error(applyProblem);
      return false;
    }
    applyProblem = null;
    current = next;
    outbound = nextOutbound;
    // Only now: a backend the old rules decided on is closed after their decisions drain.
    factory.applied();
    AgentLog.info((firstLoad ? "loaded " : "reloaded ") + describe(next) + " from " + file);
    if (nextOutbound.active()) {
      AgentLog.info("outbound rules: " + String.join(", ", nextOutbound.names()));
    }
    if (!firstLoad) {
      logChanges(previous, next);
      OutboundRules.logChanges(previousOutbound, nextOutbound);
    }
    return true;
  }

  /** Whether a rules file holds nothing at all: blank lines, comments, document markers. */
  static boolean isBlank(String yaml) {
    for (String line : yaml.split("\\R", -1)) {
      String t = line.trim();
      if (t.startsWith("\uFEFF")) {
        t = t.substring(1).trim();
      }
      if (!t.isEmpty() && !t.startsWith("#") && !t.equals("---") && !t.equals("...")) {
        return false;
      }
    }
    return true;
  }

  private String keptRulesNote() {
    RuleSet inForce = current;
    return inForce.isEmpty()
        ? "; no rules are in force, every request passes"
        : "; the last good rules stay in force (" + describe(inForce) + ")";
  }

  /**
   * Why the rules file in use is not what is in force, as the log said it: it cannot be read, or
   * its content was not applied (invalid, or emptied); null when its content is in force. What
   * {@code status} reports as a problem.
   */
  public String fileProblem() {
    String unreadable = readProblem;
    return unreadable != null ? unreadable : applyProblem;
  }

  /** The factory that builds the rules: its backend is the one they decide on. */
  public RuleSetFactory factory() {
    return factory;
  }

  /**
   * How many rules {@link #describe} names: a file of 10,000 per-tenant rules once logged all
   * their names, 150 KB in one line, at every reload.
   */
  static final int NAMES_SHOWN = 20;

  /**
   * Whether the rules last built count on Redis. Asked before anything of the Redis client is
   * touched, so that an agent whose rules count locally never loads its classes.
   */
  public boolean countsOnRedis() {
    return factory.redisBackend() != null;
  }

  /** The rules in force, as the log names them: {@code 2 rules: login, api (shadow)}. */
  public String describeInForce() {
    return describe(current);
  }

  static String describe(RuleSet rules) {
    List<String> names = new ArrayList<>();
    for (Rule rule : rules.rules()) {
      if (names.size() == NAMES_SHOWN) {
        names.add("and " + (rules.size() - NAMES_SHOWN) + " more");
        break;
      }
      names.add(rule.name() + (rule.isShadow() ? " (shadow)" : ""));
    }
    return rules.size() + " rule" + (rules.size() == 1 ? "" : "s")
        + (names.isEmpty() ? "" : ": " + String.join(", ", names));
  }

  private static void logChanges(RuleSet previous, RuleSet next) {
    for (Rule rule : next.rules()) {
      Rule before = previous.find(rule.name());
      if (before == null) {
        AgentLog.info("rule '" + rule.name() + "' added");
      } else if (before.store() != rule.store()) {
        AgentLog.info("rule '" + rule.name() + "' changed; "
            + (rule.carriesCountsOf(before)
                ? "what each key had used carries over to its new limits"
                : "its counts start afresh"));
      }
      if (before != null && before.isShadow() != rule.isShadow()) {
        AgentLog.info("rule '" + rule.name() + "' is now "
            + (rule.isShadow() ? "in shadow mode: it no longer refuses" : "enforced: it refuses"));
      }
    }
    for (Rule rule : previous.rules()) {
      if (next.find(rule.name()) == null) {
        AgentLog.info("rule '" + rule.name() + "' removed");
      }
    }
  }
}
