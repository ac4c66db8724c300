package io.tollgate.config;

import java.util.Objects;

/** One thing wrong with a rules file, with where it is (1-based line and column; 0 when unknown). */
public final class ConfigProblem {
  private final String source;
  private final int line;
  private final int column;
  private final String message;

  public ConfigProblem(String source, int line, int column, String message) {
    this.source = source == null ? "<rules>" : source;
    this.line = line;
    this.column = column;
    this.message = Objects.requireNonNull(message, "message");
  }

  /** The file path (as given) or other name of the source. */
  public String source() {
    return source;
  }

  /** 1-based line, or 0 when the problem has no position. */
  public int line() {
    return line;
  }

  /** 1-based column, or 0 when the problem has no position. */
  public int column() {
    return column;
  }

  /** What is wrong, in words for an operator. */
  public String message() {
    return message;
  }

  /** {@code <source>: line N, column M: <message>}. */
  @Override
  public String toString() {
    if (line <= 0) {
      return source + ": " + message;
    }
    return source + ": line " + line + ", column " + column + ": " + message;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof ConfigProblem)) {
      return false;
    }
    ConfigProblem other = (ConfigProblem) o;
    return line == other.line
        && column == other.column
        && source.equals(other.source)
        && message.equals(other.message);
  }

  @Override
  public int hashCode() {
    return Objects.hash(source, line, column, message);
  }
}
