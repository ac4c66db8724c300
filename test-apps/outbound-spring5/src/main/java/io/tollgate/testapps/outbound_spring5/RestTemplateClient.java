package io.tollgate.testapps.outbound_spring5;

import io.tollgate.testapps.burst.PartnerCall;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.web.client.RestClientResponseException;
import org.springframework.web.client.RestTemplate;

/**
 * Spring 5.3's {@code RestTemplate} on one request factory, called as its users call it: {@code
 * getForEntity}. The partner's 4xx or 5xx is thrown by the template's error handler ({@code
 * HttpClientErrorException.TooManyRequests} for a 429), and read back as the status the app got.
 */
final class RestTemplateClient implements PartnerCall {

  private final RestTemplate template;

  RestTemplateClient(ClientHttpRequestFactory factory) {
    this.template = new RestTemplate(factory);
  }

  @Override
  public int call(String url) {
    try {
      return template.getForEntity(url, String.class).getStatusCodeValue();
    } catch (RestClientResponseException partnerSaidNo) {
      return partnerSaidNo.getRawStatusCode();
    }
  }
}
