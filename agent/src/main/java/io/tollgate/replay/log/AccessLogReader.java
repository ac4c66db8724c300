package io.tollgate.replay.log;

import java.io.Closeable;
import java.io.IOException;

/**
 * The requests of one or more access logs, in time order. Lines that cannot be parsed are not
 * fatal: they are counted and the first few kept in {@link #problems()}.
 */
public interface AccessLogReader extends Closeable {

  /** The next request in time order, or null at the end of every file. */
  LoggedRequest next() throws IOException;

  /** The lines that could not be parsed so far. */
  UnparsedLines problems();

  /** Bytes of the files read so far (compressed bytes for gzip files), for a progress bar. */
  long bytesRead();

  /** The files' total size in bytes, as {@link #bytesRead} counts them. */
  long totalBytes();
}
