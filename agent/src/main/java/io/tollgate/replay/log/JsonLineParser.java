package io.tollgate.replay.log;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads JSON-lines access logs (one object per line) into requests, with the field names of a
 * {@link JsonFields}. A line needs a time and either a method and a path or a whole request line;
 * everything else is optional. The time may be ISO-8601, {@code [dd/MMM/yyyy:HH:mm:ss Z]} (nginx
 * {@code $time_local}) or epoch seconds, milliseconds (or finer) as a number or a string (see
 * {@link Timestamps}). Empty strings and {@code "-"} are absent values, as nginx writes them.
 */
final class JsonLineParser implements LineParser {

  private final FlatJsonReader json = new FlatJsonReader();
  private final Timestamps timestamps = new Timestamps();
  private final RequestLine requestLine = new RequestLine();
  private final JsonFields fields;
  /** Field name to {role, rank among the role's candidates}. */
  private final Map<String, int[]> roles = new HashMap<>();
  private final String[] found = new String[JsonFields.ROLES.size()];
  // What the field names at each position of the last line meant, by name identity (the JSON
  // reader hands out the same String for the same name at the same position, line after line):
  // saves a lookup and a string search per field.
  private String[] knownNames = new String[32];
  private Meaning[] knownMeanings = new Meaning[32];

  /** What a field name means: a role (with the name's rank among its candidates), or a header. */
  private static final class Meaning {
    final int role;
    final int rank;
    final String header;

    Meaning(int role, int rank, String header) {
      this.role = role;
      this.rank = rank;
      this.header = header;
    }
  }

  private static final Meaning NOTHING = new Meaning(-1, 0, null);
  private final int[] foundRank = new int[JsonFields.ROLES.size()];
  private String whyNot;

  JsonLineParser(JsonFields fields) {
    this.fields = fields;
    for (int role = 0; role < JsonFields.ROLES.size(); role++) {
      List<String> names = fields.candidates(role);
      for (int rank = 0; rank < names.size(); rank++) {
        // A name that is a candidate for two roles ("request" as line vs. object) keeps the first.
        roles.putIfAbsent(names.get(rank), new int[] {role, rank});
      }
    }
  }

  @Override
  public String whyNot() {
    return whyNot;
  }

  private LoggedRequest fail(String reason) {
    whyNot = reason;
    return null;
  }

  @Override
  public LoggedRequest parse(byte[] b, int start, int end, String source, long lineNumber) {
    String problem = json.read(b, start, end);
    if (problem != null) {
      return fail(problem);
    }
    for (int i = 0; i < found.length; i++) {
      found[i] = null;
      foundRank[i] = Integer.MAX_VALUE;
    }
    Map<String, String> headers = null;
    for (int i = 0; i < json.count(); i++) {
      if (json.isAbsent(i)) {
        continue;
      }
      Meaning meaning = meaning(i, json.name(i));
      if (meaning.role >= 0) {
        if (meaning.rank < foundRank[meaning.role]) {
          found[meaning.role] = json.value(i);
          foundRank[meaning.role] = meaning.rank;
        }
      } else if (meaning.header != null) {
        headers = put(headers, meaning.header, json.value(i));
      }
    }
    String time = found[JsonFields.TIME];
    if (time == null) {
      return fail("no time field (" + names(JsonFields.TIME) + ")");
    }
    long millis = timestamps.parseText(time);
    if (millis == Timestamps.INVALID) {
      return fail("time \"" + time
          + "\" is not ISO-8601, dd/MMM/yyyy:HH:mm:ss Z or epoch seconds/milliseconds");
    }
    String method = found[JsonFields.METHOD];
    String target = found[JsonFields.PATH];
    if (method != null && target != null) {
      requestLine.method = method;
      requestLine.target(target);
    } else if (found[JsonFields.REQUEST] != null) {
      byte[] line = found[JsonFields.REQUEST].getBytes(java.nio.charset.StandardCharsets.UTF_8);
      String bad = requestLine.parse(line, 0, line.length);
      if (bad != null) {
        return fail(bad);
      }
    } else if (target == null) {
      return fail("no path field (" + names(JsonFields.PATH) + ") and no request line ("
          + names(JsonFields.REQUEST) + ")");
    } else {
      return fail("no method field (" + names(JsonFields.METHOD) + ")");
    }
    String query = requestLine.query;
    if (query == null) {
      query = found[JsonFields.QUERY];
    }
    headers = put(headers, "user-agent", found[JsonFields.USER_AGENT]);
    headers = put(headers, "referer", found[JsonFields.REFERER]);
    headers = put(headers, "x-forwarded-for", found[JsonFields.X_FORWARDED_FOR]);
    String host = found[JsonFields.HOST] != null ? found[JsonFields.HOST] : requestLine.host;
    headers = put(headers, "host", host);
    for (Map.Entry<String, String> header : fields.headerFields().entrySet()) {
      headers = put(headers, header.getKey(), json.get(header.getValue()));
    }
    return new LoggedRequest(millis, found[JsonFields.CLIENT], requestLine.method,
        requestLine.path, query, status(found[JsonFields.STATUS]), found[JsonFields.USER],
        headers, source, lineNumber);
  }

  private Meaning meaning(int position, String name) {
    if (position < knownNames.length && knownNames[position] == name) {
      return knownMeanings[position];
    }
    Meaning meaning = NOTHING;
    int[] role = roles.get(name);
    if (role != null) {
      meaning = new Meaning(role[0], role[1], null);
    } else if (name.startsWith("http_")) {
      meaning = new Meaning(-1, 0, name.substring(5).replace('_', '-').toLowerCase(Locale.ROOT));
    } else {
      int at = name.lastIndexOf("headers.");
      if (at >= 0 && (at == 0 || name.charAt(at - 1) == '.')) {
        meaning = new Meaning(-1, 0, name.substring(at + "headers.".length()).toLowerCase(Locale.ROOT));
      }
    }
    if (position >= knownNames.length) {
      knownNames = java.util.Arrays.copyOf(knownNames, position * 2);
      knownMeanings = java.util.Arrays.copyOf(knownMeanings, position * 2);
    }
    knownNames[position] = name;
    knownMeanings[position] = meaning;
    return meaning;
  }

  private String names(int role) {
    return String.join(", ", fields.candidates(role));
  }

  /** Adds a header (lower-case name) when the value is present; a later put of a name wins. */
  private static Map<String, String> put(Map<String, String> headers, String name, String value) {
    if (value == null || value.isEmpty() || value.equals("-")) {
      return headers;
    }
    if (headers == null) {
      headers = new HashMap<>(8);
    }
    headers.put(name.toLowerCase(Locale.ROOT), value);
    return headers;
  }

  /** A status as a number or a numeric string; -1 when absent or not a number. */
  private static int status(String text) {
    if (text == null || text.isEmpty() || text.length() > 3) {
      return -1;
    }
    int value = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }
}
