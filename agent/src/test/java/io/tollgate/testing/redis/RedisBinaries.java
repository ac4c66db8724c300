package io.tollgate.testing.redis;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Where a {@code redis-server} binary can be found for the harness to run. */
public final class RedisBinaries {

  private static Path extracted;

  private RedisBinaries() {}

  /** {@code redis-server} on PATH (or REDIS_SERVER_BIN), or null. */
  public static Path onPath() {
    String explicit = System.getenv("REDIS_SERVER_BIN");
    if (explicit != null && Files.isExecutable(Paths.get(explicit))) {
      return Paths.get(explicit);
    }
    String path = System.getenv("PATH");
    if (path == null) {
      return null;
    }
    for (String dir : path.split(File.pathSeparator)) {
      if (dir.isEmpty()) {
        continue;
      }
      Path candidate = Paths.get(dir, "redis-server");
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return null;
  }

  /**
   * The redis-server shipped in the test dependency com.github.codemonstur:embedded-redis for this
   * OS and CPU, extracted once to a temporary file; null when there is none for this platform.
   */
  public static synchronized Path embedded() {
    if (extracted != null) {
      return extracted;
    }
    String resource = embeddedResourceName();
    if (resource == null) {
      return null;
    }
    try (InputStream in = RedisBinaries.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        return null;
      }
      Path dir = Files.createTempDirectory("tollgate-embedded-redis-");
      Path binary = dir.resolve("redis-server");
      Files.copy(in, binary, StandardCopyOption.REPLACE_EXISTING);
      if (!binary.toFile().setExecutable(true)) {
        return null;
      }
      binary.toFile().deleteOnExit();
      dir.toFile().deleteOnExit();
      extracted = binary;
      return binary;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot extract " + resource, e);
    }
  }

  private static String embeddedResourceName() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    boolean x64 = arch.equals("amd64") || arch.equals("x86_64");
    boolean arm64 = arch.equals("aarch64") || arch.equals("arm64");
    if (os.contains("linux")) {
      return x64 ? "redis-server-6.2.6-v5-linux-amd64"
          : arm64 ? "redis-server-6.2.7-linux-arm64" : null;
    }
    if (os.contains("mac")) {
      return x64 ? "redis-server-6.2.6-v5-darwin-amd64"
          : arm64 ? "redis-server-6.2.6-v5-darwin-arm64" : null;
    }
    return null;
  }

  /** Every binary this machine has: PATH first, then the embedded one. */
  public static List<Path> all() {
    List<Path> binaries = new ArrayList<>();
    Path path = onPath();
    if (path != null) {
      binaries.add(path);
    }
    Path embedded = embedded();
    if (embedded != null) {
      binaries.add(embedded);
    }
    return binaries;
  }
}
