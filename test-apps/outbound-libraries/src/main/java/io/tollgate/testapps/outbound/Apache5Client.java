package io.tollgate.testapps.outbound;

import io.tollgate.testapps.burst.PartnerCall;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.io.entity.EntityUtils;

/**
 * Apache HttpClient 5, classic, with its defaults (among them its retry of a 429 or 503 once, after
 * the partner's Retry-After) and room for a burst.
 */
final class Apache5Client implements PartnerCall {

  private final CloseableHttpClient client =
      HttpClients.custom()
          .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
              .setMaxConnPerRoute(200).setMaxConnTotal(200).build())
          .build();

  @Override
  public int call(String url) throws Exception {
    return client.execute(new HttpGet(url), response -> {
      EntityUtils.consume(response.getEntity());
      return response.getCode();
    });
  }
}
