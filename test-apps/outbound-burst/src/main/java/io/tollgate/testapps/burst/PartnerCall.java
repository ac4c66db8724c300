package io.tollgate.testapps.burst;

import java.util.function.Supplier;

/**
 * One call to the partner, made as the app's users make it with one client: a GET of {@code url}
 * that answers the partner's status, its body read and the response closed, or throws what the
 * client threw (a future's {@code ExecutionException} or {@code CompletionException} is reported
 * as its cause). Called from many threads at once.
 */
@FunctionalInterface
public interface PartnerCall {

  int call(String url) throws Exception;

  /**
   * A call whose client is made by {@code maker} on its first use, as an app makes its client once
   * and keeps it: a burst that never uses it never loads its classes.
   */
  static PartnerCall madeOnFirstUse(Supplier<? extends PartnerCall> maker) {
    return new PartnerCall() {
      private PartnerCall made;

      @Override
      public int call(String url) throws Exception {
        PartnerCall call;
        synchronized (this) {
          if (made == null) {
            made = maker.get();
          }
          call = made;
        }
        return call.call(url);
      }
    };
  }
}
