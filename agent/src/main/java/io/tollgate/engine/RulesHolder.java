package io.tollgate.engine;

import io.tollgate.config.ConfigException;
import io.tollgate.config.ConfigProblem;
import io.tollgate.config.RulesConfig;
import io.tollgate.config.RulesFileParser;
import io.tollgate.diagnostics.AgentLog;
import io.tollgate.rules.Rule;
import io.tollgate.rules.RuleSet;
import io.tollgate.rules.RuleSetFactory;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
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
  private volatile String path;
  private byte[] lastContent;

  public RulesHolder(RuleSetFactory factory) {
    this.factory = factory;
  }

  public RuleSet current() {
    return current;
  }

  public String path() {
    return path;
  }

  /** Switches to another rules file and loads it. */
  public synchronized void useFile(String newPath) {
    this.path = newPath;
    this.lastContent = null;
    reloadIfChanged();
  }

  /**
   * Reads the file and applies it if its content changed since the last attempt.
   *
   * @return true when new rules were put in force
   */
  public synchronized boolean reloadIfChanged() {
    String file = path;
    if (file == null) {
      return false;
    }
    byte[] content;
    try {
      content = read(new File(file));
    } catch (IOException e) {
      if (lastContent == null || lastContent.length > 0) {
        AgentLog.error("cannot read the rules file " + file + ": " + e.getMessage()
            + keptRulesNote());
        lastContent = new byte[0];
      }
      return false;
    }
    if (lastContent != null && Arrays.equals(content, lastContent)) {
      return false;
    }
    boolean firstLoad = lastContent == null;
    lastContent = content;
    return apply(new String(content, StandardCharsets.UTF_8), file, firstLoad);
  }

  private boolean apply(String yaml, String file, boolean firstLoad) {
    RuleSet previous = current;
    if (!previous.isEmpty() && isBlank(yaml)) {
      // A file being rewritten (truncated, then written) reads this way for a moment, and so does
      // a deployment that lost its content: neither means "remove every limit".
      AgentLog.error("the rules file " + file + " is empty (nothing but blanks and comments) and"
          + " was not applied" + keptRulesNote() + "; to remove every rule on purpose, write"
          + " 'rules: []'");
      return false;
    }
    RuleSet next;
    try {
      RulesConfig config = RulesFileParser.parse(yaml, file);
      next = factory.build(config, previous);
    } catch (ConfigException e) {
      for (ConfigProblem problem : e.problems()) {
        AgentLog.error(problem.toString());
      }
      AgentLog.error("the rules file " + file + " was not applied (" + e.problems().size()
          + " problem" + (e.problems().size() == 1 ? "" : "s") + ")" + keptRulesNote());
      return false;
    } catch (RuntimeException e) {
      AgentLog.error("the rules file " + file + " was not applied: " + e + keptRulesNote());
      return false;
    }
    current = next;
    AgentLog.info((firstLoad ? "loaded " : "reloaded ") + describe(next) + " from " + file);
    if (!firstLoad) {
      logChanges(previous, next);
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

  static String describe(RuleSet rules) {
    List<String> names = new ArrayList<>();
    for (Rule rule : rules.rules()) {
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

  private static byte[] read(File file) throws IOException {
    // java.io rather than java.nio.file: the agent may run before the application has set up its
    // file systems, and must not fix the default one for it.
    try (InputStream in = new FileInputStream(file)) {
      return in.readAllBytes();
    }
  }
}
