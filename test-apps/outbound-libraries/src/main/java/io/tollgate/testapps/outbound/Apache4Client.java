package io.tollgate.testapps.outbound;

import io.tollgate.testapps.burst.PartnerCall;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.util.EntityUtils;

/** Apache HttpClient 4.5, classic, built as most apps build it, with room for a burst. */
final class Apache4Client implements PartnerCall {

  private final CloseableHttpClient client =
      HttpClients.custom().setMaxConnPerRoute(200).setMaxConnTotal(200).build();

  @Override
  public int call(String url) throws Exception {
    try (CloseableHttpResponse response = client.execute(new HttpGet(url))) {
      EntityUtils.consume(response.getEntity());
      return response.getStatusLine().getStatusCode();
    }
  }
}
