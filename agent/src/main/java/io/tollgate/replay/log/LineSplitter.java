package io.tollgate.replay.log;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.zip.ZipException;

/**
 * Cuts a byte stream into lines without decoding it: the parsers read the bytes in place, so a
 * line costs no String unless a field of it is kept. Lines end with {@code \n}; a {@code \r}
 * before it is dropped (CRLF files); the last line needs no terminator.
 *
 * <p>The buffer grows to hold the longest line, up to {@code maxLineBytes}; a longer line is
 * returned cut to that length with {@link #truncated()} set, and the rest of it is skipped, so
 * that one enormous line costs bounded memory and does not stop the file.
 */
final class LineSplitter {

  private final InputStream in;
  private final int maxLineBytes;
  private byte[] buffer;
  private int position; // start of the unread data
  private int limit; // end of the data in buffer
  private int scanned; // bytes from position already known to hold no '\n'
  private boolean endOfStream;
  private boolean skippingRest; // the rest of a too-long line is being thrown away
  private String damage;

  private int lineStart;
  private int lineEnd;
  private boolean truncated;
  private long lineNumber;

  LineSplitter(InputStream in, int maxLineBytes) {
    this.in = in;
    this.maxLineBytes = Math.max(maxLineBytes, 16);
    this.buffer = new byte[Math.min(1 << 16, this.maxLineBytes + 1)];
  }

  /**
   * Reads ahead until {@code wanted} bytes wait in the buffer (or the stream ends), without
   * consuming them: a look at the head of a file to recognise its format. Returns how many wait,
   * from {@link #peekStart()} in {@link #buffer()}.
   */
  int readAhead(int wanted) throws IOException {
    while (limit - position < wanted && !endOfStream && limit - position < maxLineBytes) {
      fill();
    }
    return limit - position;
  }

  /** Where the unread bytes start in {@link #buffer()}. */
  int peekStart() {
    return position;
  }

  /** Skips a UTF-8 byte order mark at the current position (the start of a file). */
  void skipByteOrderMark() throws IOException {
    if (readAhead(3) >= 3 && (buffer[position] & 0xFF) == 0xEF
        && (buffer[position + 1] & 0xFF) == 0xBB && (buffer[position + 2] & 0xFF) == 0xBF) {
      position += 3;
    }
  }

  /** Moves to the next line; false at the end of the stream. */
  boolean next() throws IOException {
    truncated = false;
    while (true) {
      int newline = Bytes.indexOfNewline(buffer, position + scanned, limit);
      if (newline >= 0) {
        if (skippingRest) {
          skippingRest = false;
          position = newline + 1;
          scanned = 0;
          continue;
        }
        setLine(position, newline);
        position = newline + 1;
        scanned = 0;
        return true;
      }
      if (skippingRest) {
        position = limit; // drop what was read of the long line
        scanned = 0;
      } else {
        scanned = limit - position;
      }
      if (endOfStream) {
        if (position < limit) {
          setLine(position, limit);
          position = limit;
          scanned = 0;
          return true;
        }
        return false;
      }
      if (!skippingRest && limit - position >= maxLineBytes) {
        setLine(position, position + maxLineBytes);
        truncated = true;
        skippingRest = true;
        position += maxLineBytes;
        scanned = 0;
        return true;
      }
      fill();
    }
  }

  private void setLine(int start, int end) {
    lineStart = start;
    lineEnd = end > start && buffer[end - 1] == '\r' ? end - 1 : end;
    lineNumber++;
  }

  /** Reads more: first moves the unread data to the front, then grows the buffer if it is full. */
  private void fill() throws IOException {
    if (position > 0) {
      System.arraycopy(buffer, position, buffer, 0, limit - position);
      limit -= position;
      position = 0;
    }
    if (limit == buffer.length) {
      int grown = (int) Math.min((long) buffer.length * 2, maxLineBytes + 1L);
      if (grown <= buffer.length) {
        return; // full at the limit: next() cuts the line
      }
      buffer = Arrays.copyOf(buffer, grown);
    }
    int read;
    try {
      read = in.read(buffer, limit, buffer.length - limit);
    } catch (EOFException | ZipException e) {
      // A gzip file cut short (still being written or compressed, copied half-way) or damaged:
      // the lines before the damage are still good, so the file ends there and says why.
      damage = "the gzip data ends early or is damaged (" + e.getMessage()
          + "): the file is read up to there";
      read = -1;
    }
    if (read < 0) {
      endOfStream = true;
    } else {
      limit += read;
    }
  }

  /** Why the stream ended before its end (a truncated or damaged gzip file), or null. */
  String damage() {
    return damage;
  }

  /** The buffer holding the current line; valid until the next call to {@link #next}. */
  byte[] buffer() {
    return buffer;
  }

  int lineStart() {
    return lineStart;
  }

  int lineEnd() {
    return lineEnd;
  }

  /** The line's number in the stream, from 1. */
  long lineNumber() {
    return lineNumber;
  }

  /** Whether the line was longer than the limit and is cut to it. */
  boolean truncated() {
    return truncated;
  }

  int maxLineBytes() {
    return maxLineBytes;
  }
}
