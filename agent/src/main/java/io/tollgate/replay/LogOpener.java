package io.tollgate.replay;

import io.tollgate.replay.log.AccessLogReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Opens the access logs a replay reads, in time order, as the command line names them. */
interface LogOpener {

  /**
   * @param format a name of {@link ReplayArguments#FORMATS}, or null to recognise each file's
   * @param jsonFields {@code ROLE=FIELD} mappings for JSON logs
   * @throws IOException when a file cannot be opened
   * @throws IllegalArgumentException when the options are not valid for the readers
   */
  AccessLogReader open(List<Path> files, String format, List<String> jsonFields)
      throws IOException;
}
