/**
 * The access-log readers of {@code java -jar tollgate-agent.jar replay RULES.yaml LOG...}: they turn
 * access logs into {@link io.tollgate.replay.log.LoggedRequest}s in time order, for the replay to
 * feed to the engine. Depends on the JDK only.
 *
 * <h2>For the replay</h2>
 *
 * <pre>{@code
 * LogReadOptions options = new LogReadOptions()
 *     .format(formatName == null ? null : LogFormat.fromName(formatName)) // --format; null: recognise
 *     .jsonFields(JsonFields.defaults().with("time=ts").with("client=ip"));  // each --field
 * try (AccessLogFiles logs = AccessLogFiles.open(paths, options)) {       // IOException: say, exit 2
 *   ProgressBar bar = ProgressBar.start(logs, System.err);
 *   long n = 0;
 *   for (LoggedRequest r; (r = logs.next()) != null; ) {
 *     ...                                                                 // r.epochMillis never decreases
 *     bar.update(++n);
 *   }
 *   bar.finish();
 *   logs.problems();      // UnparsedLines: count() and the first 5 with file, line number, reason
 *   logs.lateRequests();  // lines later than the reorder window, replayed at the time before them
 *   logs.formats();       // each file's format, named or recognised
 * }
 * }</pre>
 *
 * {@link io.tollgate.replay.log.LogFormat#fromName} and {@link
 * io.tollgate.replay.log.JsonFields#with(String)} throw {@code IllegalArgumentException} with a
 * message for the user (the choices, the roles) on a bad option.
 *
 * <h2>What is read</h2>
 *
 * <ul>
 *   <li>NCSA ({@code combined}, {@code common}, {@code tomcat}, all read alike by {@link
 *       io.tollgate.replay.log.NcsaLineParser}): Apache and nginx {@code common}/{@code combined},
 *       Tomcat AccessLogValve {@code common}/{@code combined} and its default pattern, nginx
 *       formats that add fields after {@code combined}; a trailing quoted address list is the
 *       {@code X-Forwarded-For} header.
 *   <li>JSON lines ({@code json}, {@link io.tollgate.replay.log.JsonLineParser}): field names per
 *       {@link io.tollgate.replay.log.JsonFields} (nginx, Caddy, Traefik and generic names by
 *       default; {@code --field ROLE=NAME} to name others; {@code http_*} fields and {@code
 *       headers} objects are request headers).
 *   <li>Each file plain or gzip (recognised by its bytes), its format recognised from its first
 *       lines unless named, merged with the others by time; lines up to 5 s out of order within a
 *       file are put back in order ({@link io.tollgate.replay.log.LogReadOptions#reorderWindowMillis}).
 *   <li>A line that is not a request (garbage, {@code "-"} request lines, lines over 8 MB, a
 *       damaged gzip tail) is counted in {@link io.tollgate.replay.log.UnparsedLines} with its
 *       reason, never an exception; bytes that are not UTF-8 become U+FFFD.
 * </ul>
 *
 * <p>Speed: about 2 million combined lines and 1 million JSON lines per CPU-second (see {@code
 * benchmarks/results/replay-reader.txt}): the parsers are hand-written and read each line's bytes in
 * place, decoding only the fields they keep.
 *
 * <p>May use: the JDK only, so that the replay (above the engine) can use it and it can be tested
 * on its own.
 */
package io.tollgate.replay.log;
