package io.tollgate.replay.log;

import java.util.Locale;

/**
 * The access-log formats the readers understand, by the names {@code replay --format} takes.
 *
 * <p>{@link #COMBINED}, {@link #COMMON} and {@link #TOMCAT} are read by the same NCSA parser
 * ({@link NcsaLineParser}): {@code %h %l %u %t "%r" %s %b}, then whatever trailing fields the
 * line has (referer and user agent for the combined layout, then extra quoted fields such as
 * nginx's {@code "$http_x_forwarded_for"}). People call their logs by any of the three names, and
 * a log that is "common" on one line and "combined" on the next (an edited format mid-file) must
 * not turn into unparsed lines; the names are kept so that the command line accepts the one a
 * user knows. {@link #JSON} is one JSON object per line ({@link JsonLineParser}).
 */
public enum LogFormat {
  /** NCSA combined: Apache {@code combined}, nginx's default {@code combined}. */
  COMBINED,
  /** NCSA common: Apache {@code common}, without referer and user agent. */
  COMMON,
  /** Tomcat AccessLogValve {@code common} / {@code combined} (and its default pattern). */
  TOMCAT,
  /** JSON lines, field names per {@link JsonFields}. */
  JSON;

  /** The name on the command line: {@code combined}. */
  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether lines are read by the NCSA parser. */
  public boolean isNcsa() {
    return this != JSON;
  }

  /**
   * The format named {@code name} (any case).
   *
   * @throws IllegalArgumentException naming the choices, when it is none of them
   */
  public static LogFormat fromName(String name) {
    for (LogFormat format : values()) {
      if (format.cliName().equalsIgnoreCase(name.trim())) {
        return format;
      }
    }
    throw new IllegalArgumentException(
        "unknown log format '" + name + "': use combined, common, tomcat or json");
  }
}
