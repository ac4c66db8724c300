package io.tollgate.testapps.outbound_spring6;

import io.tollgate.testapps.burst.PartnerCall;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientResponseException;

/**
 * {@code RestClient} on one request factory, called as its users call it: {@code
 * get().uri(url).retrieve().toEntity(String.class)}. {@code retrieve} throws the partner's 4xx or
 * 5xx, read back as the status the app got.
 */
final class RestClientClient implements PartnerCall {

  private final RestClient client;

  RestClientClient(ClientHttpRequestFactory factory) {
    this.client = RestClient.builder().requestFactory(factory).build();
  }

  @Override
  public int call(String url) {
    try {
      return client.get().uri(url).retrieve().toEntity(String.class).getStatusCode().value();
    } catch (RestClientResponseException partnerSaidNo) {
      return partnerSaidNo.getStatusCode().value();
    }
  }
}
