package io.tollgate.replay.log;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Counts the bytes read from a file, before any decompression: what a progress bar compares with
 * the file's size. Read and counted by one thread.
 */
final class CountingInputStream extends FilterInputStream {

  private long count;

  CountingInputStream(InputStream in) {
    super(in);
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    if (b >= 0) {
      count++;
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = super.read(b, off, len);
    if (n > 0) {
      count += n;
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    long skipped = super.skip(n);
    count += skipped;
    return skipped;
  }

  @Override
  public boolean markSupported() {
    return false;
  }

  long count() {
    return count;
  }
}
