package io.tollgate.testapps.burst;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * How a burst's calls went, as {@code /burst} answers it, one line of JSON:
 *
 * <pre>{@code
 * {"client":"NAME","statuses":{"200":48,"429":2},"exceptions":{"CLASS":N},
 *  "messages":{"CLASS":"first message"},"causes":{"CLASS":"CAUSE, ITS CAUSE"},"longestMillis":N}
 * }</pre>
 *
 * <p>Each status and each exception class counted; for each exception class, the message and the
 * chain of causes' classes (outermost first, empty when none) of its first. The integration tests
 * read the counts by name ({@code it.Burst}) and {@code longestMillis}: keep those as they are.
 */
final class BurstReport {

  private final Map<String, Integer> statuses = new TreeMap<>();
  private final Map<String, Integer> exceptions = new TreeMap<>();
  private final Map<String, String> messages = new TreeMap<>();
  private final Map<String, String> causes = new TreeMap<>();
  private long longestMillis;

  synchronized void status(int status) {
    statuses.merge(Integer.toString(status), 1, Integer::sum);
  }

  /** What the client failed the call with: a future's wrapper stands for its cause. */
  synchronized void exception(Throwable thrown) {
    Throwable failure = thrown;
    while ((failure instanceof ExecutionException || failure instanceof CompletionException)
        && failure.getCause() != null) {
      failure = failure.getCause();
    }
    String name = failure.getClass().getName();
    exceptions.merge(name, 1, Integer::sum);
    messages.putIfAbsent(name, String.valueOf(failure.getMessage()));
    StringBuilder chain = new StringBuilder();
    Throwable cause = failure.getCause();
    for (int depth = 0; cause != null && depth < 10; depth++, cause = cause.getCause()) {
      chain.append(chain.length() > 0 ? ", " : "").append(cause.getClass().getName());
    }
    causes.putIfAbsent(name, chain.toString());
  }

  synchronized void took(long millis) {
    longestMillis = Math.max(longestMillis, millis);
  }

  synchronized String toJson(String client) {
    return "{\"client\":\"" + escape(client) + "\",\"statuses\":" + counts(statuses)
        + ",\"exceptions\":" + counts(exceptions) + ",\"messages\":" + texts(messages)
        + ",\"causes\":" + texts(causes) + ",\"longestMillis\":" + longestMillis + "}";
  }

  private static String counts(Map<String, Integer> counts) {
    StringBuilder json = new StringBuilder("{");
    for (Map.Entry<String, Integer> entry : counts.entrySet()) {
      json.append(json.length() > 1 ? "," : "").append('"').append(escape(entry.getKey()))
          .append("\":").append(entry.getValue());
    }
    return json.append('}').toString();
  }

  private static String texts(Map<String, String> texts) {
    StringBuilder json = new StringBuilder("{");
    for (Map.Entry<String, String> entry : texts.entrySet()) {
      json.append(json.length() > 1 ? "," : "").append('"').append(escape(entry.getKey()))
          .append("\":\"").append(escape(entry.getValue())).append('"');
    }
    return json.append('}').toString();
  }

  static String escape(String text) {
    StringBuilder escaped = new StringBuilder();
    for (char c : text.toCharArray()) {
      if (c == '"' || c == '\\') {
        escaped.append('\\').append(c);
      } else if (c < 0x20) {
        escaped.append(String.format("\\u%04x", (int) c));
      } else {
        escaped.append(c);
      }
    }
    return escaped.toString();
  }
}
