package io.tollgate.instrumentation.outbound.jdkhttp;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A refused {@code sendAsync}'s future fails with the refusal however the app waits for it. */
class RefusedFutureTest {

  private final IOException refusal = new IOException("outbound rule 'fails' did not send");

  @Test
  void getThrowsTheRefusalAsItsCauseAtOnce() {
    CompletableFuture<Object> future = RefusedFuture.failingWith(refusal);
    ExecutionException thrown = assertThrows(ExecutionException.class, future::get);
    assertSame(refusal, thrown.getCause());
  }

  @Test
  void aTimedGetThrowsItToo() {
    CompletableFuture<Object> future = RefusedFuture.failingWith(refusal);
    ExecutionException thrown =
        assertThrows(ExecutionException.class, () -> future.get(1, TimeUnit.HOURS));
    assertSame(refusal, thrown.getCause());
  }

  @Test
  void joinThrowsItInACompletionException() {
    CompletableFuture<Object> future = RefusedFuture.failingWith(refusal);
    CompletionException thrown = assertThrows(CompletionException.class, future::join);
    assertSame(refusal, thrown.getCause());
  }

  /** An app that only chains on the future (and waits on the chain) sees it fail as well. */
  @Test
  void aChainOnItFailsWithItWithoutAnyoneWaitingOnTheFutureItself() {
    CompletableFuture<Object> future = RefusedFuture.failingWith(refusal);
    CompletableFuture<String> chained = future.thenApply(response -> "answered");
    CompletionException thrown = assertThrows(CompletionException.class, chained::join);
    assertSame(refusal, thrown.getCause());
  }
}
