package io.tollgate.config;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads a rules file's bytes, refusing what must not be read: anything but a regular file, and
 * a file too large to be rules.
 *
 * <p>Only regular files (after following links, as a Kubernetes ConfigMap's are), because opening
 * a FIFO blocks until someone writes to it: a {@code mkfifo rules.yaml} once froze the reload
 * thread in {@code FileInputStream.open}, and with it every later attach. A device could stream
 * forever. Only up to {@link #MAX_BYTES}, because the whole file is held in memory: a file grown to
 * 600 MB once exhausted a 256 MB heap and ended the application.
 *
 * <p>Reading uses {@code java.io} rather than {@code java.nio.file}: the agent may run before the
 * application has set up its file systems, and must not fix the default one for it.
 */
public final class RulesFileReader {

  /**
   * The largest rules file read, 4 MiB: thousands of rules fit in a fraction of it, and anything
   * larger is a mistake (a log written to the wrong path, a file appended to in a loop).
   */
  public static final int MAX_BYTES = 4 * 1024 * 1024;

  private RulesFileReader() {}

  /** Why a rules file was not read; its message names the path and says what is wrong. */
  public static final class UnreadableException extends IOException {
    private static final long serialVersionUID = 1L;

    UnreadableException(String message) {
      super(message);
    }
  }

  /**
   * The file's content.
   *
   * @throws UnreadableException when it is missing, not a regular file, too large or unreadable;
   *     the message is a sentence about {@code file}
   */
  public static byte[] read(File file) throws UnreadableException {
    String path = file.getPath();
    if (!file.exists()) {
      throw new UnreadableException("the rules file " + path + " does not exist");
    }
    if (file.isDirectory()) {
      throw new UnreadableException(path + " is a directory, not a rules file");
    }
    if (!file.isFile()) {
      throw new UnreadableException(path + " is not a regular file (a FIFO, socket or device);"
          + " only regular files are read as rules, as reading anything else could block");
    }
    long length = file.length();
    if (length > MAX_BYTES) {
      throw tooLarge(path, length);
    }
    // The length can change between the check and the read (a file being appended to): read no
    // more than the limit allows, whatever the file has become.
    try (InputStream in = new FileInputStream(file)) {
      ByteArrayOutputStream content = new ByteArrayOutputStream((int) Math.max(length, 64));
      byte[] buffer = new byte[8192];
      int n;
      while ((n = in.read(buffer)) > 0) {
        if (content.size() + n > MAX_BYTES) {
          throw tooLarge(path, Math.max(file.length(), content.size() + (long) n));
        }
        content.write(buffer, 0, n);
      }
      return content.toByteArray();
    } catch (UnreadableException e) {
      throw e;
    } catch (IOException e) {
      throw new UnreadableException("cannot read the rules file " + path + ": " + e.getMessage());
    }
  }

  private static UnreadableException tooLarge(String path, long length) {
    return new UnreadableException("the rules file " + path + " is " + size(length)
        + ", more than the " + size(MAX_BYTES) + " a rules file may have; it was not read");
  }

  /** {@code 157286400 bytes (150.0 MiB)}. */
  static String size(long bytes) {
    if (bytes < 1024 * 1024) {
      return bytes + " bytes";
    }
    double mebibytes = bytes / (1024.0 * 1024.0);
    return bytes + " bytes (" + (bytes % (1024 * 1024) == 0
        ? Long.toString(bytes / (1024 * 1024)) : String.format(java.util.Locale.ROOT, "%.1f", mebibytes))
        + " MiB)";
  }
}
