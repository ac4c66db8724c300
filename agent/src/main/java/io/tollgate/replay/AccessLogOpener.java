package io.tollgate.replay;

import io.tollgate.replay.log.AccessLogFiles;
import io.tollgate.replay.log.AccessLogReader;
import io.tollgate.replay.log.JsonFields;
import io.tollgate.replay.log.LogFormat;
import io.tollgate.replay.log.LogReadOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Opens logs with the readers of {@code io.tollgate.replay.log} ({@link AccessLogFiles}). */
final class AccessLogOpener implements LogOpener {

  static final AccessLogOpener INSTANCE = new AccessLogOpener();

  private AccessLogOpener() {}

  @Override
  public AccessLogReader open(List<Path> files, String format, List<String> fields)
      throws IOException {
    LogReadOptions options = new LogReadOptions();
    if (format != null) {
      options.format(LogFormat.fromName(format));
    }
    JsonFields json = JsonFields.defaults();
    for (String field : fields) {
      json = json.with(field);
    }
    options.jsonFields(json);
    return AccessLogFiles.open(files, options);
  }

  /** What the readers tell of the files: each one's format, requests placed late. */
  static List<String> notes(AccessLogReader reader) {
    List<String> notes = new ArrayList<>();
    if (!(reader instanceof AccessLogFiles)) {
      return notes;
    }
    AccessLogFiles files = (AccessLogFiles) reader;
    StringBuilder formats = new StringBuilder("Read ");
    for (Map.Entry<String, LogFormat> file : files.formats().entrySet()) {
      if (formats.length() > 5) {
        formats.append(", ");
      }
      formats.append(file.getKey()).append(" as ").append(file.getValue().cliName());
    }
    notes.add(formats.append('.').toString());
    long early = files.releasedEarly();
    if (early > 0) {
      notes.add(Figures.count(early) + " request" + (early == 1 ? " was" : "s were") + " taken"
          + " out of the reorder window before it had passed: the log came faster than the window"
          + " holds (at most " + Figures.count(LogReadOptions.DEFAULT_REORDER_MAX_REQUESTS)
          + " requests or " + (LogReadOptions.DEFAULT_REORDER_MAX_BYTES >> 20) + " MB), so"
          + " memory stays bounded; they were replayed in the order of their lines.");
    }
    long late = files.lateRequests();
    if (late > 0) {
      notes.add(Figures.count(late) + " request" + (late == 1 ? " was" : "s were") + " logged"
          + " later than the reorder window allows after later ones; decided at the time of the"
          + " request before them.");
    }
    return notes;
  }
}
