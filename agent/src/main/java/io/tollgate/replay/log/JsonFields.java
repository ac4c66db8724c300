package io.tollgate.replay.log;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which JSON fields hold which part of a request. Each part (a <em>role</em>: {@code time},
 * {@code client}, {@code path}...) has a list of candidate field names, tried in order; the
 * defaults cover nginx JSON log formats ({@code time_iso8601}/{@code time_local}, {@code
 * remote_addr}, {@code request} or {@code request_method} + {@code request_uri}, {@code status},
 * {@code http_user_agent}, {@code http_x_forwarded_for}...), Caddy ({@code ts}, {@code
 * request.method}, {@code request.uri}, {@code request.headers.*}), Traefik ({@code ClientHost},
 * {@code RequestMethod}, {@code RequestPath}, {@code DownstreamStatus}) and the usual generic
 * names ({@code timestamp}, {@code ip}, {@code method}, {@code path}, {@code status}).
 *
 * <p>{@code replay --field ROLE=NAME} replaces a role's candidates with the one field named
 * ({@link #with(String)}); {@code --field header.NAME=FIELD} reads a request header from a field.
 * Besides, any field {@code http_NAME} (nginx's {@code $http_*} variables) is the header NAME
 * with {@code _} as {@code -}, and any field under a {@code headers} object is the header of that
 * name. Nested objects are named with dots: {@code request.method}.
 *
 * <p>Immutable.
 */
public final class JsonFields {

  /** The roles, in the order of {@code replay --help}. */
  public static final List<String> ROLES =
      Collections.unmodifiableList(Arrays.asList(
          "time", "client", "method", "path", "query", "request", "status", "user", "host",
          "user-agent", "referer", "x-forwarded-for"));

  static final int TIME = 0;
  static final int CLIENT = 1;
  static final int METHOD = 2;
  static final int PATH = 3;
  static final int QUERY = 4;
  static final int REQUEST = 5;
  static final int STATUS = 6;
  static final int USER = 7;
  static final int HOST = 8;
  static final int USER_AGENT = 9;
  static final int REFERER = 10;
  static final int X_FORWARDED_FOR = 11;

  private static final List<List<String>> DEFAULTS = Arrays.asList(
      // time
      Arrays.asList("time", "@timestamp", "timestamp", "time_iso8601", "time_local", "ts", "msec",
          "date", "datetime", "StartUTC", "start_time"),
      // client
      Arrays.asList("remote_addr", "client_ip", "clientip", "client", "ip", "remote_ip",
          "remoteAddr", "ClientHost", "request.client_ip", "request.remote_ip", "c-ip"),
      // method
      Arrays.asList("request_method", "method", "verb", "RequestMethod", "request.method",
          "http.method", "httpRequest.requestMethod"),
      // path (a path with or without its query, or a full URL)
      Arrays.asList("request_uri", "uri", "path", "url", "request_path", "RequestPath",
          "request.uri", "http.url", "url.original"),
      // query
      Arrays.asList("args", "query_string", "query", "querystring"),
      // request: a whole request line, "GET /path HTTP/1.1"
      Arrays.asList("request", "request_line"),
      // status
      Arrays.asList("status", "status_code", "statusCode", "response_status", "response", "code",
          "DownstreamStatus", "http.status_code"),
      // user
      Arrays.asList("remote_user", "user", "username", "user_name", "auth_user"),
      // host
      Arrays.asList("host", "http_host", "request.host", "RequestHost"),
      // user-agent
      Arrays.asList("http_user_agent", "user_agent", "userAgent", "agent", "ua"),
      // referer
      Arrays.asList("http_referer", "referer", "referrer"),
      // x-forwarded-for
      Arrays.asList("http_x_forwarded_for", "x_forwarded_for", "xff", "forwarded_for"));

  private static final JsonFields DEFAULT_FIELDS = new JsonFields(DEFAULTS, Collections.emptyMap());

  private final List<List<String>> candidates;
  /** Header name (lower case) to field name, from {@code --field header.NAME=FIELD}. */
  private final Map<String, String> headerFields;

  private JsonFields(List<List<String>> candidates, Map<String, String> headerFields) {
    this.candidates = candidates;
    this.headerFields = headerFields;
  }

  /** The default candidates for every role. */
  public static JsonFields defaults() {
    return DEFAULT_FIELDS;
  }

  /**
   * These fields, with one role read from the named field only (or, for {@code header.NAME}, one
   * more header read from it).
   *
   * @throws IllegalArgumentException naming the roles, when {@code role} is none of them
   */
  public JsonFields with(String role, String fieldName) {
    String r = role.trim().toLowerCase(Locale.ROOT);
    String field = fieldName.trim();
    if (field.isEmpty()) {
      throw new IllegalArgumentException("--field " + role + "=: no field name");
    }
    if (r.startsWith("header.") || r.startsWith("header:")) {
      String header = r.substring("header.".length());
      if (header.isEmpty()) {
        throw new IllegalArgumentException("--field " + role + ": no header name after 'header.'");
      }
      Map<String, String> headers = new LinkedHashMap<>(headerFields);
      headers.put(header, field);
      return new JsonFields(candidates, Collections.unmodifiableMap(headers));
    }
    int index = ROLES.indexOf(r);
    if (index < 0) {
      throw new IllegalArgumentException("unknown field role '" + role + "' in --field " + role
          + "=" + fieldName + ": use " + String.join(", ", ROLES) + " or header.NAME");
    }
    List<List<String>> changed = new ArrayList<>(candidates);
    changed.set(index, Collections.singletonList(field));
    return new JsonFields(Collections.unmodifiableList(changed), headerFields);
  }

  /**
   * {@link #with(String, String)} from {@code ROLE=FIELD}, as {@code replay --field} takes it.
   *
   * @throws IllegalArgumentException when it has no {@code =} or names no known role
   */
  public JsonFields with(String roleEqualsField) {
    int equals = roleEqualsField.indexOf('=');
    if (equals <= 0) {
      throw new IllegalArgumentException("--field " + roleEqualsField
          + ": expected ROLE=FIELD, such as time=ts or client=ip");
    }
    return with(roleEqualsField.substring(0, equals), roleEqualsField.substring(equals + 1));
  }

  /** The field names tried for a role, in order. */
  public List<String> candidates(String role) {
    int index = ROLES.indexOf(role);
    if (index < 0) {
      throw new IllegalArgumentException("unknown field role '" + role + "'");
    }
    return candidates.get(index);
  }

  List<String> candidates(int role) {
    return candidates.get(role);
  }

  /** Headers named by {@code --field header.NAME=FIELD}: lower-case header name to field. */
  public Map<String, String> headerFields() {
    return headerFields;
  }
}
