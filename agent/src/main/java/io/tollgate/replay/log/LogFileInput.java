package io.tollgate.replay.log;

import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * Opens a log file as a stream of its text, decompressing gzip files. A gzip file is recognised by
 * its magic bytes, not by its name: rotated logs are named {@code access.log.1.gz}, {@code
 * access.log-20240101} (compressed or not, by logrotate's {@code delaycompress}), or renamed by
 * hand. Files in other compressions are refused with a message that says so, rather than read as
 * garbage lines.
 */
final class LogFileInput {

  private LogFileInput() {}

  /** The name that means standard input, as Unix tools take it: {@code zcat *.gz | ... -}. */
  static final String STANDARD_INPUT = "-";

  static boolean isStandardInput(Path file) {
    return file.toString().equals(STANDARD_INPUT);
  }

  /**
   * The file's text as a stream ({@code -}: standard input); {@code counter} counts the bytes read
   * from the file itself.
   */
  static InputStream open(Path file, CountingInputStream[] counter) throws IOException {
    InputStream raw = isStandardInput(file) ? standardInput() : Files.newInputStream(file);
    CountingInputStream counting = new CountingInputStream(raw);
    counter[0] = counting;
    try {
      // Pushed back rather than buffered: the line splitter's reads then go straight to the file.
      PushbackInputStream head = new PushbackInputStream(counting, 8);
      byte[] magic = new byte[6];
      int n = head.readNBytes(magic, 0, magic.length);
      head.unread(magic, 0, n);
      String other = otherCompression(magic, n);
      if (other != null) {
        throw new IOException(
            file + " is " + other + "-compressed: decompress it first (gzip is read as it is)");
      }
      if (n >= 2 && (magic[0] & 0xFF) == 0x1F && (magic[1] & 0xFF) == 0x8B) {
        // GZIPInputStream reads every member of a multi-member file (cat a.gz b.gz > c.gz).
        return new GZIPInputStream(head, 1 << 16);
      }
      return head;
    } catch (IOException | RuntimeException e) {
      counting.close();
      throw e;
    }
  }

  /** System.in, which closing the reader must not close (the JVM's, not the reader's). */
  private static InputStream standardInput() {
    return new java.io.FilterInputStream(System.in) {
      @Override
      public void close() {}
    };
  }

  private static String otherCompression(byte[] m, int n) {
    if (n >= 3 && m[0] == 'B' && m[1] == 'Z' && m[2] == 'h') {
      return "bzip2";
    }
    if (n >= 6 && (m[0] & 0xFF) == 0xFD && m[1] == '7' && m[2] == 'z' && m[3] == 'X'
        && m[4] == 'Z' && m[5] == 0) {
      return "xz";
    }
    if (n >= 4 && (m[0] & 0xFF) == 0x28 && (m[1] & 0xFF) == 0xB5 && (m[2] & 0xFF) == 0x2F
        && (m[3] & 0xFF) == 0xFD) {
      return "zstd";
    }
    if (n >= 4 && m[0] == 'P' && m[1] == 'K' && m[2] == 3 && m[3] == 4) {
      return "zip";
    }
    return null;
  }
}
