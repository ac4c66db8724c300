package io.tollgate.testapps.outbound_jaxrs;

import io.tollgate.testapps.burst.PartnerCall;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import jakarta.ws.rs.core.Response;
import java.util.concurrent.TimeUnit;

/**
 * A GET with the JAX-RS client API, as its users write it: one {@link Client} from {@link
 * ClientBuilder} kept for every call, and {@code client.target(url).request().get()}, on the
 * burst's thread or {@code .async().get()}, whose future the burst's thread waits for. Which
 * implementation answers is the app's class path's: Jersey, RESTEasy or CXF, each with its own
 * default transport.
 */
final class JaxRsCall implements PartnerCall {

  private final Client client = ClientBuilder.newBuilder()
      .connectTimeout(10, TimeUnit.SECONDS)
      .readTimeout(30, TimeUnit.SECONDS)
      .build();
  private final boolean async;

  JaxRsCall(boolean async) {
    this.async = async;
  }

  @Override
  public int call(String url) throws Exception {
    Response answer = async
        ? client.target(url).request().async().get().get(2, TimeUnit.MINUTES)
        : client.target(url).request().get();
    try (Response response = answer) {
      if (response.hasEntity()) {
        response.readEntity(String.class);
      }
      return response.getStatus();
    }
  }

}
