package io.tollgate.instrumentation.jaxrs.jersey;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.ws.rs.core.Response;
import org.glassfish.jersey.internal.MapPropertiesDelegate;
import org.glassfish.jersey.server.ContainerRequest;
import org.glassfish.jersey.server.ContainerResponse;
import org.glassfish.jersey.server.internal.process.RequestProcessingContext;
import org.glassfish.jersey.server.spi.ContainerResponseWriter;
import org.junit.jupiter.api.Test;

/**
 * The end of a request on Jersey without a servlet container, on Jersey 2's own objects: the
 * request's response writer is wrapped, Jersey's calls still reach the container's writer, and
 * the action runs once, when the response is committed or has failed, with the status and headers
 * Jersey wrote.
 */
class JerseyCompletionTest {

  private final ContainerRequest request =
      new ContainerRequest(
          URI.create("http://shop.example/"),
          URI.create("http://shop.example/login"),
          "POST",
          null,
          new MapPropertiesDelegate(),
          null);
  private final RecordingWriter container = new RecordingWriter();
  private final JerseyApi jersey =
      JerseyApi.of(new RequestProcessingContext(null, request, null, null, null));
  private final JerseyExchange exchange = new JerseyExchange(jersey, request, null, "10.0.0.7");
  private final AtomicInteger ended = new AtomicInteger();
  private final List<Integer> statusAtEnd = new ArrayList<>();

  JerseyCompletionTest() {
    request.setWriter(container);
    exchange.whenComplete(() -> {
      ended.incrementAndGet();
      statusAtEnd.add(exchange.responseStatus(false));
    });
  }

  @Test
  void theActionRunsOnceWhenTheResponseIsCommittedWithTheStatusAndHeadersJerseyWrote()
      throws Exception {
    ContainerResponseWriter writer = request.getResponseWriter();
    ContainerResponse response =
        new ContainerResponse(request, Response.status(401).header("X-Cost", "3").build());
    assertEquals(-1, exchange.responseStatus(false), "nothing written yet");

    writer.writeResponseStatusAndHeaders(-1, response);
    assertEquals(0, ended.get(), "not before the entity is written");
    writer.commit();
    writer.commit();

    assertEquals(1, ended.get());
    assertEquals(List.of(401), statusAtEnd);
    assertEquals("3", exchange.responseHeader("X-Cost"));
    assertNull(exchange.responseHeader("X-Other"));
    assertEquals(List.of("writeResponseStatusAndHeaders 401", "commit", "commit"), container.calls);
  }

  @Test
  void aResponseThatFailedToBeWrittenHasNoStatus() {
    ContainerResponseWriter writer = request.getResponseWriter();
    writer.writeResponseStatusAndHeaders(-1, new ContainerResponse(request, Response.ok().build()));
    writer.failure(new IllegalStateException("connection reset"));

    assertEquals(1, ended.get());
    assertEquals(List.of(-1), statusAtEnd);
    assertEquals(List.of("writeResponseStatusAndHeaders 200", "failure"), container.calls);
  }

  @Test
  void suspendingAndBufferingReachTheContainersWriter() {
    ContainerResponseWriter writer = request.getResponseWriter();
    assertEquals(true, writer.suspend(5, TimeUnit.SECONDS, null));
    writer.setSuspendTimeout(7, TimeUnit.SECONDS);
    assertEquals(true, writer.enableResponseBuffering());

    assertEquals(List.of("suspend 5", "setSuspendTimeout 7", "enableResponseBuffering"), container.calls);
    assertEquals(0, ended.get());
  }

  /** The container's writer: records Jersey's calls. */
  static final class RecordingWriter implements ContainerResponseWriter {
    final List<String> calls = new ArrayList<>();

    @Override
    public OutputStream writeResponseStatusAndHeaders(long length, ContainerResponse response) {
      calls.add("writeResponseStatusAndHeaders " + response.getStatus());
      return new ByteArrayOutputStream();
    }

    @Override
    public boolean suspend(long time, TimeUnit unit, TimeoutHandler handler) {
      calls.add("suspend " + time);
      return true;
    }

    @Override
    public void setSuspendTimeout(long time, TimeUnit unit) {
      calls.add("setSuspendTimeout " + time);
    }

    @Override
    public void commit() {
      calls.add("commit");
    }

    @Override
    public void failure(Throwable error) {
      calls.add("failure");
    }

    @Override
    public boolean enableResponseBuffering() {
      calls.add("enableResponseBuffering");
      return true;
    }
  }
}
