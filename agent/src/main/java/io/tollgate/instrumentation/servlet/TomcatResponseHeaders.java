package io.tollgate.instrumentation.servlet;

import io.tollgate.http.HeaderText;
import io.tollgate.http.RefusalMessage;
import io.tollgate.instrumentation.DirectCalls;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.Map;

/**
 * The quota headers, and a refusal's headers, put into Tomcat's own response headers as bytes, for
 * Tomcat's responses (its connector response, which its host valve passes, and the facade that
 * filters and servlets get).
 *
 * <p>Why: a header set by {@code setHeader} is kept as a string, and Tomcat turns each name and
 * each value into bytes when it commits the response ({@code MessageBytes.toBytes}: a new {@code
 * CharsetEncoder}, a {@code CharBuffer}, a {@code ByteBuffer}, then a pass that blanks control
 * characters): four such conversions for {@code RateLimit-Policy} and {@code RateLimit}, the
 * largest part of what a matching rule cost a hello-world request on Tomcat end to end. Written
 * as bytes, Tomcat copies them into its output as they are.
 *
 * <p>The bytes go into the buffer Tomcat keeps for that header (its {@code ByteChunk}, which it
 * reuses from request to request), never as an array of ours: Tomcat writes into a header's
 * buffer when it reuses the header for another value ({@code setLong} for a {@code
 * Content-Length}), which would change a shared array under every other response.
 *
 * <p>The same as {@code setHeader} where it applies: only a name that is not one of the headers
 * Tomcat handles itself ({@code Content-Type}, {@code Content-Length}: every name that begins with
 * {@code Content-} goes the usual way, {@link #isSpecial}) and is not on the response yet (the
 * application's own setHeader later replaces this one, as it would have replaced the string),
 * only characters that Tomcat would not change (printable ASCII: the quota headers have no
 * others; a rule name that has any goes by {@code setHeader}), not after the response is
 * committed. Otherwise, on another container, a Tomcat whose classes differ, or any exception, the caller
 * uses {@code setHeader}.
 */
final class TomcatResponseHeaders {

  private static final String RESPONSE = "org.apache.catalina.connector.Response";
  private static final String FACADE = "org.apache.catalina.connector.ResponseFacade";
  private static final String COYOTE_RESPONSE = "org.apache.coyote.Response#";
  private static final String MIME_HEADERS = "org.apache.tomcat.util.http.MimeHeaders#";
  private static final String MESSAGE_BYTES = "org.apache.tomcat.util.buf.MessageBytes#";
  private static final String BYTE_CHUNK = "org.apache.tomcat.util.buf.ByteChunk#";

  private final Class<?> responseClass;
  private final Class<?> facadeClass;
  /** The facade's {@code response} field (protected, so read through a handle). */
  private final MethodHandle facadeResponse;
  private final TomcatResponseCalls calls;

  private TomcatResponseHeaders(ClassLoader loader) throws ReflectiveOperationException {
    responseClass = Class.forName(RESPONSE, false, loader);
    facadeClass = Class.forName(FACADE, false, loader);
    Field field = facadeClass.getDeclaredField("response");
    field.setAccessible(true);
    facadeResponse =
        MethodHandles.lookup().unreflectGetter(field)
            .asType(MethodType.methodType(Object.class, Object.class));
    Map<String, String> targets = new HashMap<>();
    targets.put("getCoyoteResponse", RESPONSE + "#getCoyoteResponse");
    targets.put("isCommitted", COYOTE_RESPONSE + "isCommitted");
    targets.put("getMimeHeaders", COYOTE_RESPONSE + "getMimeHeaders");
    for (String method : new String[] {"getValue", "addValue", "size", "getName"}) {
      targets.put(method, MIME_HEADERS + method);
    }
    targets.put("getByteChunk", MESSAGE_BYTES + "getByteChunk");
    targets.put("setBytes", MESSAGE_BYTES + "setBytes");
    targets.put("allocate", BYTE_CHUNK + "allocate");
    targets.put("getBuffer", BYTE_CHUNK + "getBuffer");
    calls =
        DirectCalls.implement(
            TomcatResponseCalls.class, targets, "io.tollgate.generated.TomcatResponseCalls",
            loader);
  }

  /**
   * For the requests of Tomcat's request facade class or its connector request class (whose
   * responses are Tomcat's too, unless a filter wrapped them); null for any other class, or a
   * Tomcat it does not know.
   */
  static TomcatResponseHeaders forRequestClass(Class<?> requestClass) {
    if (!TomcatRequestClasses.isTomcatRequest(requestClass)) {
      return null;
    }
    try {
      return new TomcatResponseHeaders(requestClass.getClassLoader());
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null;
    }
  }

  /**
   * Sets the header on {@code response} as bytes; false when it did not, and {@code setHeader}
   * should (a response of another class, a name or value this does not take, any failure).
   */
  boolean set(Object response, String name, String value) {
    if (name.isEmpty() || isSpecial(name)) {
      return false;
    }
    try {
      Object headers = headersToAddTo(response, name);
      if (headers == null) {
        return false;
      }
      Object valueBytes = calls.addValue(headers, name);
      // A header half written is whole again by the caller's setHeader: it finds the name and
      // sets the value as a string.
      return copy(value, valueBytes)
          && copy(name, calls.getName(headers, calls.size(headers) - 1));
    } catch (Throwable e) {
      return false;
    }
  }

  /**
   * As {@link #set(Object, String, String)}, for a name and value kept with their bytes: copied
   * as they are, with no character looked at again (the quota headers of every allowed
   * response, a refusal's headers).
   */
  boolean set(Object response, HeaderText name, HeaderText value) {
    if (!goesInAsBytes(name, value)) {
      return false;
    }
    try {
      Object headers = headersOf(response);
      return headers != null && addAsBytes(headers, name, value, true);
    } catch (Throwable e) {
      return false;
    }
  }

  /**
   * Two headers kept with their bytes, in this order (the quota headers of an allowed response):
   * Tomcat's response looked up once for both, as {@link #setAll} does for a refusal's. False when
   * either could not go in this way (the caller then sets each: one put in already is found and
   * replaced by {@code setHeader}, as one set twice would be).
   */
  boolean setBoth(Object response, HeaderText name, HeaderText value, HeaderText secondName,
      HeaderText secondValue) {
    if (!goesInAsBytes(name, value) || !goesInAsBytes(secondName, secondValue)) {
      return false;
    }
    try {
      Object headers = headersOf(response);
      if (headers == null) {
        return false;
      }
      // A response without headers yet (the first entry point's, before the application runs)
      // has neither name: nothing to look for, unless the two names are one.
      boolean lookFirst =
          calls.size(headers) != 0 || name.text().equalsIgnoreCase(secondName.text());
      return addAsBytes(headers, name, value, lookFirst)
          && addAsBytes(headers, secondName, secondValue, lookFirst);
    } catch (Throwable e) {
      return false;
    }
  }

  /**
   * A refusal's headers, after the response's reset, put in as bytes all at once: Tomcat's
   * response is looked up once for all of them, not once a header, and, the reset having left it
   * no header, none is looked for before it is added when the refusal's names all differ. False
   * when any of them cannot go in this way (the caller then sets each, and those put in already
   * are found and replaced by {@code setHeader}, as one set twice would be).
   */
  boolean setAll(Object response, RefusalMessage refusal) {
    HeaderText[] texts = refusal.headerTexts();
    if (refusal != lastRefusalInBytes) {
      for (int i = 0; i < texts.length; i += 2) {
        if (!goesInAsBytes(texts[i], texts[i + 1])) {
          return false;
        }
      }
      lastRefusalInBytes = refusal;
    }
    try {
      Object headers = headersOf(response);
      if (headers == null) {
        return false;
      }
      boolean lookFirst = calls.size(headers) != 0 || !refusal.hasDistinctNames();
      for (int i = 0; i < texts.length; i += 2) {
        if (!addAsBytes(headers, texts[i], texts[i + 1], lookFirst)) {
          return false;
        }
      }
      return true;
    } catch (Throwable e) {
      return false;
    }
  }

  /**
   * The last refusal value found to go in as bytes whole ({@link #goesInAsBytes} for each of its
   * headers): a flood's refusals are one value, so its ten names and values are looked at once,
   * not on every refusal. A plain field: a thread that sees a stale one only looks again.
   */
  private RefusalMessage lastRefusalInBytes;

  /**
   * Whether the header can go into Tomcat's headers as the bytes kept with it: printable ASCII,
   * and a name Tomcat's {@code setHeader} keeps as it is. Else the caller's setHeader: Tomcat's own
   * way with such characters and names.
   */
  private static boolean goesInAsBytes(HeaderText name, HeaderText value) {
    return name.printableAscii() != null && value.printableAscii() != null
        && !name.text().isEmpty() && !isSpecial(name.text());
  }

  /**
   * Adds the header to {@code headers} as its bytes ({@link #goesInAsBytes}); false, with nothing
   * added, when the response has that header already ({@code setHeader} replaces that one), which
   * is looked for only when {@code lookFirst} (else the caller knows it cannot have it).
   */
  private boolean addAsBytes(Object headers, HeaderText name, HeaderText value,
      boolean lookFirst) throws Throwable {
    if (lookFirst && calls.getValue(headers, name.text()) != null) {
      return false;
    }
    copy(value.printableAscii(), calls.addValue(headers, name.text()));
    copy(name.printableAscii(), calls.getName(headers, calls.size(headers) - 1));
    return true;
  }

  /**
   * The headers of Tomcat's response behind {@code response} when a header {@code name} may be
   * added to them as bytes: a response of Tomcat's, not committed, without that header yet; else
   * null.
   */
  private Object headersToAddTo(Object response, String name) throws Throwable {
    Object headers = headersOf(response);
    if (headers == null || calls.getValue(headers, name) != null) {
      return null; // setHeader replaces that one
    }
    return headers;
  }

  /** The headers of Tomcat's response behind {@code response}, if it is not committed; else null. */
  private Object headersOf(Object response) throws Throwable {
    Object connector;
    Class<?> type = response.getClass();
    if (type == responseClass) {
      connector = response;
    } else if (type == facadeClass) {
      connector = facadeResponse.invokeExact(response);
      if (connector == null) {
        return null;
      }
    } else {
      return null;
    }
    Object coyote = calls.getCoyoteResponse(connector);
    if (calls.isCommitted(coyote)) {
      return null; // setHeader ignores it then, as it should
    }
    return calls.getMimeHeaders(coyote);
  }

  /**
   * Whether Tomcat's {@code setHeader} handles the header itself rather than keeping it as it is:
   * it looks only at names that begin with C ({@code checkSpecialHeader}), and takes {@code
   * Content-Type} and {@code Content-Length} (into its content type and length, written at the
   * commit). Every {@code Content-} name is left to it, to be safe with any Tomcat; {@code
   * Cache-Control} (every refusal's) is a header like the others.
   */
  static boolean isSpecial(String name) {
    char first = name.charAt(0);
    return (first == 'C' || first == 'c') && name.regionMatches(true, 0, "Content-", 0, 8);
  }

  /**
   * Puts {@code text} into the buffer of {@code messageBytes} as bytes; false, with nothing set,
   * when a character is not printable ASCII (Tomcat would encode or blank it: its own way then).
   */
  private boolean copy(String text, Object messageBytes) {
    int length = text.length();
    Object chunk = calls.getByteChunk(messageBytes);
    calls.allocate(chunk, length, -1);
    byte[] buffer = calls.getBuffer(chunk);
    for (int i = 0; i < length; i++) {
      char c = text.charAt(i);
      if (c < 0x20 || c > 0x7e) {
        return false;
      }
      buffer[i] = (byte) c;
    }
    calls.setBytes(messageBytes, buffer, 0, length);
    return true;
  }

  /** Puts {@code bytes} (printable ASCII) into the buffer of {@code messageBytes}. */
  private void copy(byte[] bytes, Object messageBytes) {
    int length = bytes.length;
    Object chunk = calls.getByteChunk(messageBytes);
    calls.allocate(chunk, length, -1);
    byte[] buffer = calls.getBuffer(chunk);
    System.arraycopy(bytes, 0, buffer, 0, length);
    calls.setBytes(messageBytes, buffer, 0, length);
  }
}
