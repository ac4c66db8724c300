package io.tollgate.diagnostics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.testing.StandardErrorCapture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Traffic that comes nearly all from one private address, with no proxy trusted, looks like a
 * load balancer that puts every client on one key: said once, even when a health check from
 * elsewhere came first or comes in between.
 */
class ProxySetupAdvisorTest {

  @RegisterExtension final StandardErrorCapture err = new StandardErrorCapture();

  private long warnings() {
    return err.text().lines()
        .filter(l -> l.contains("a private address, and client-ip.trusted-proxies is 0"))
        .count();
  }

  private static void send(ProxySetupAdvisor advisor, String peer, int requests) {
    for (int i = 0; i < requests; i++) {
      if (advisor.wantsSample()) {
        advisor.observe(peer, false);
      }
    }
  }

  @Test
  void aHealthCheckFromElsewhereBeforeTheLoadBalancerDoesNotSilenceIt() {
    ProxySetupAdvisor advisor = new ProxySetupAdvisor();
    send(advisor, "127.0.0.1", 1);
    send(advisor, "fd00:0:0:0:0:0:0:2", 2 * ProxySetupAdvisor.SAMPLES);
    assertEquals(1, warnings(), err.text());
    assertTrue(err.text().contains("came from fd00::2,"),
        "the address as keys show it: " + err);
  }

  @Test
  void probesInBetweenStillLeaveTheLoadBalancerDominant() {
    ProxySetupAdvisor advisor = new ProxySetupAdvisor();
    for (int i = 0; i < 4 * ProxySetupAdvisor.SAMPLES / 50; i++) {
      send(advisor, "10.0.0.5", 49);
      send(advisor, "10.0.0.1", 1); // the kubelet's probe
    }
    assertEquals(1, warnings(), err.text());
  }

  @Test
  void manyClientsOrAPublicPeerAreNotAProxy() {
    ProxySetupAdvisor advisor = new ProxySetupAdvisor();
    for (int i = 0; i < 4 * ProxySetupAdvisor.SAMPLES; i++) {
      send(advisor, "10.0.0." + (i % 7), 1);
    }
    send(advisor, "203.0.113.9", 4 * ProxySetupAdvisor.SAMPLES);
    assertEquals(0, warnings(), err.text());
  }
}
