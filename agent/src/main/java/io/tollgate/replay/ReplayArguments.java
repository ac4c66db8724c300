package io.tollgate.replay;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The command line of {@code replay}: {@code RULES.yaml LOG... [--format F] [--report FILE.html]
 * [--top N] [--max-keys N] [--field ROLE=FIELD]... [--no-progress]}. Options may come
 * anywhere, as {@code --name value} or {@code --name=value}.
 */
final class ReplayArguments {

  static final List<String> FORMATS = Arrays.asList("combined", "common", "tomcat", "json");
  static final int DEFAULT_TOP = 10;
  static final int DEFAULT_MAX_KEYS = 1_000_000;

  Path rules;
  final List<Path> logs = new ArrayList<>();
  /** A name of {@link #FORMATS}, or null to recognise each file's. */
  String format;
  Path report;
  int top = DEFAULT_TOP;
  int maxKeys = DEFAULT_MAX_KEYS;
  final List<String> jsonFields = new ArrayList<>();
  boolean progress = true;
  /** What is wrong with the command line, or null. */
  String problem;

  static ReplayArguments parse(String[] args) {
    ReplayArguments parsed = new ReplayArguments();
    List<String> positional = new ArrayList<>();
    for (int i = 0; i < args.length && parsed.problem == null; i++) {
      String arg = args[i];
      if (!arg.startsWith("--") || arg.equals("--")) {
        positional.add(arg);
        continue;
      }
      String name = arg;
      String value = null;
      int equals = arg.indexOf('=');
      if (equals > 0) {
        name = arg.substring(0, equals);
        value = arg.substring(equals + 1);
      }
      if (name.equals("--no-progress")) {
        parsed.progress = false;
        continue;
      }
      if (value == null) {
        if (i + 1 >= args.length) {
          parsed.problem = name + " needs a value";
          break;
        }
        value = args[++i];
      }
      parsed.option(name, value);
    }
    if (parsed.problem == null) {
      if (positional.size() < 2) {
        parsed.problem = "name a rules file and at least one access log";
      } else {
        parsed.rules = Paths.get(positional.get(0));
        for (String log : positional.subList(1, positional.size())) {
          parsed.logs.add(Paths.get(log));
        }
      }
    }
    return parsed;
  }

  private void option(String name, String value) {
    switch (name) {
      case "--format":
        if (!FORMATS.contains(value)) {
          problem = "unknown format '" + value + "'; use one of " + String.join(", ", FORMATS);
        }
        format = value;
        break;
      case "--report":
        report = Paths.get(value);
        break;
      case "--top":
        top = positive(name, value, 0);
        break;
      case "--max-keys":
        maxKeys = positive(name, value, 1);
        break;
      case "--field":
        if (value.indexOf('=') <= 0) {
          problem = "--field takes ROLE=FIELD, such as client=remote_addr";
        }
        jsonFields.add(value);
        break;
      default:
        problem = "unknown option '" + name + "'";
    }
  }

  private int positive(String name, String value, int least) {
    try {
      int n = Integer.parseInt(value);
      if (n >= least) {
        return n;
      }
    } catch (NumberFormatException e) {
      // below
    }
    problem = name + " takes a whole number of at least " + least + ", not '" + value + "'";
    return least;
  }

  List<String> jsonFields() {
    return Collections.unmodifiableList(jsonFields);
  }
}
