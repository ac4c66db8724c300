package io.tollgate.diagnostics;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** Tollgate's version, as the build wrote it into {@code io/tollgate/version.properties}. */
public final class Version {

  private static final String VERSION = load();

  private Version() {}

  public static String current() {
    return VERSION;
  }

  private static String load() {
    try (InputStream in = Version.class.getResourceAsStream("/io/tollgate/version.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version", "unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }
}
