package io.tollgate.testapps.outbound;

import io.tollgate.testapps.burst.PartnerCall;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.async.methods.SimpleRequestBuilder;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;

/** Apache HttpClient 5, async: the call's future, waited for by the burst's thread. */
final class Apache5AsyncClient implements PartnerCall {

  private final CloseableHttpAsyncClient client;

  Apache5AsyncClient() {
    client = HttpAsyncClients.custom()
        .setConnectionManager(PoolingAsyncClientConnectionManagerBuilder.create()
            .setMaxConnPerRoute(200).setMaxConnTotal(200).build())
        .build();
    client.start();
  }

  @Override
  public int call(String url) throws Exception {
    SimpleHttpResponse response =
        client.execute(SimpleRequestBuilder.get(url).build(), null).get(2, TimeUnit.MINUTES);
    return response.getCode();
  }
}
