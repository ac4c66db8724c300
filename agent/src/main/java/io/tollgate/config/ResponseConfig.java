package io.tollgate.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A {@code response:} section, at the top level or in a rule: the status of a refusal and the body
 * written in place of the default one. Each part is null when not written, so that a rule's
 * response can be laid over the top-level one ({@link #over}).
 *
 * <p>The body is held as a parsed template: {@link #bodyParts()} alternates literal text (even
 * indexes) and placeholder names (odd indexes), such as {@code ["busy: ", "rule", ""]}.
 */
public final class ResponseConfig {

  /** No {@code response:} anywhere: 429 and the negotiated default body. */
  public static final ResponseConfig NONE = new ResponseConfig(null, null, null, null);

  private final Integer status;
  private final String bodyTemplate;
  private final List<String> bodyParts;
  private final String contentType;

  ResponseConfig(Integer status, String bodyTemplate, List<String> bodyParts, String contentType) {
    this.status = status;
    this.bodyTemplate = bodyTemplate;
    this.bodyParts =
        bodyParts == null ? null : Collections.unmodifiableList(new ArrayList<>(bodyParts));
    this.contentType = contentType;
  }

  /** The status of a refusal over the limit, or null for the default (429). */
  public Integer status() {
    return status;
  }

  /** The body template as written, or null when the default body is negotiated. */
  public String bodyTemplate() {
    return bodyTemplate;
  }

  /** The parsed template (literal, name, literal, ...), or null without a body. */
  public List<String> bodyParts() {
    return bodyParts;
  }

  /** The body's content type; null when there is no body. */
  public String contentType() {
    return contentType;
  }

  /**
   * This (a rule's) response laid over {@code base} (the top-level one): the status on its own,
   * the body together with its content type, so that a rule's text body never goes out labelled
   * with the top level's JSON content type.
   */
  public ResponseConfig over(ResponseConfig base) {
    if (base == null || base == NONE) {
      return this;
    }
    Integer s = status != null ? status : base.status;
    return bodyParts != null
        ? new ResponseConfig(s, bodyTemplate, bodyParts, contentType)
        : new ResponseConfig(s, base.bodyTemplate, base.bodyParts, base.contentType);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ResponseConfig)) {
      return false;
    }
    ResponseConfig r = (ResponseConfig) o;
    return Objects.equals(status, r.status) && Objects.equals(bodyTemplate, r.bodyTemplate)
        && Objects.equals(contentType, r.contentType);
  }

  @Override
  public int hashCode() {
    return Objects.hash(status, bodyTemplate, contentType);
  }

  @Override
  public String toString() {
    return "{status=" + (status == null ? "default" : status)
        + (bodyTemplate == null ? "" : ", body='" + bodyTemplate + "', content-type=" + contentType)
        + "}";
  }
}
