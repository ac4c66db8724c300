package io.tollgate.outbound;

import io.tollgate.config.OutboundRuleConfig;

/**
 * The key an outbound call counts against: one budget for the whole partner ({@code global}), one
 * per destination host ({@code host}), or one per value of a header the app sets on its call
 * ({@code header:NAME}, such as the tenant it calls for).
 */
final class OutboundKey {

  /** The key of calls without the header a rule keys on: they share one budget, not none. */
  static final String NO_HEADER = "(no header)";
  private static final int MAX_LENGTH = 200;

  private final String header;
  private final boolean byHost;

  private OutboundKey(String header, boolean byHost) {
    this.header = header;
    this.byHost = byHost;
  }

  static OutboundKey of(String key) {
    if (key.startsWith(OutboundRuleConfig.KEY_HEADER_PREFIX)) {
      return new OutboundKey(key.substring(OutboundRuleConfig.KEY_HEADER_PREFIX.length()), false);
    }
    return new OutboundKey(null, OutboundRuleConfig.KEY_HOST.equals(key));
  }

  String of(OutboundCall call) {
    if (byHost) {
      return call.host() + ":" + call.port();
    }
    if (header == null) {
      return "";
    }
    String value = call.header(header);
    if (value == null || value.isEmpty()) {
      return NO_HEADER;
    }
    // A key is bounded, as inbound keys are: a store keeps it, and a log line may show it.
    return value.length() > MAX_LENGTH ? value.substring(0, MAX_LENGTH) : value;
  }
}
