package io.tollgate.testapps.outbound;

import io.tollgate.testapps.burst.PartnerCall;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/** OkHttp with its defaults, each call executed on the burst's thread or enqueued. */
final class OkHttpClients implements PartnerCall {

  private final OkHttpClient client = new OkHttpClient();
  private final boolean enqueued;

  OkHttpClients(boolean enqueued) {
    this.enqueued = enqueued;
  }

  @Override
  public int call(String url) throws Exception {
    Call call = client.newCall(new Request.Builder().url(url).build());
    if (!enqueued) {
      try (Response response = call.execute()) {
        response.body().string();
        return response.code();
      }
    }
    CompletableFuture<Integer> status = new CompletableFuture<>();
    call.enqueue(new Callback() {
      @Override
      public void onFailure(Call failed, IOException e) {
        status.completeExceptionally(e);
      }

      @Override
      public void onResponse(Call answered, Response response) throws IOException {
        try (Response closed = response) {
          closed.body().string();
          status.complete(closed.code());
        }
      }
    });
    return status.get(2, TimeUnit.MINUTES);
  }
}
