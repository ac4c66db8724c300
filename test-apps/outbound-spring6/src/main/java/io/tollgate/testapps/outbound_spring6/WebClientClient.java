package io.tollgate.testapps.outbound_spring6;

import io.tollgate.testapps.burst.PartnerCall;
import java.time.Duration;
import org.springframework.http.client.reactive.ClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientResponseException;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * {@code WebClient} on one connector, called as a blocking app calls it: {@code
 * get().uri(url).retrieve().toEntity(String.class).block()}, subscribed on the calling thread
 * (where the connector sends the call, and so where a pacing rule holds it), or on a Reactor
 * scheduler's thread. {@code retrieve} fails with the partner's 4xx or 5xx, read back as the status
 * the app got; a call that never ends fails after a minute, so that a burst says so.
 */
final class WebClientClient implements PartnerCall {

  private final WebClient client;
  private final Scheduler subscribedOn;

  /** {@code subscribedOn}: null for the calling thread. */
  WebClientClient(ClientHttpConnector connector, Scheduler subscribedOn) {
    this.client = WebClient.builder().clientConnector(connector).build();
    this.subscribedOn = subscribedOn;
  }

  @Override
  public int call(String url) {
    Mono<Integer> status = client.get().uri(url).retrieve().toEntity(String.class)
        .map(entity -> entity.getStatusCode().value())
        .onErrorResume(WebClientResponseException.class,
            partnerSaidNo -> Mono.just(partnerSaidNo.getStatusCode().value()));
    if (subscribedOn != null) {
      status = status.subscribeOn(subscribedOn);
    }
    return status.block(Duration.ofMinutes(1));
  }
}
