package io.tollgate.replay.log;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The lines of the logs that could not be read as requests: how many, and the first few. */
public final class UnparsedLines {

  /** How many examples are kept. */
  public static final int EXAMPLES_KEPT = 5;

  /** One line that could not be parsed, and why. */
  public static final class Example {
    public final String source;
    public final long lineNumber;
    public final String reason;
    /** The line, cut to at most 200 characters. */
    public final String text;

    public Example(String source, long lineNumber, String reason, String text) {
      this.source = source;
      this.lineNumber = lineNumber;
      this.reason = reason;
      this.text = text.length() > 200 ? text.substring(0, 200) + "..." : text;
    }

    @Override
    public String toString() {
      return source + ": line " + lineNumber + ": " + reason + ": " + text;
    }
  }

  private long count;
  private final List<Example> examples = new ArrayList<>(EXAMPLES_KEPT);

  public void add(String source, long lineNumber, String reason, String text) {
    count++;
    if (examples.size() < EXAMPLES_KEPT) {
      examples.add(new Example(source, lineNumber, reason, text));
    }
  }

  public long count() {
    return count;
  }

  public List<Example> examples() {
    return Collections.unmodifiableList(examples);
  }
}
