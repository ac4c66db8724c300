package io.tollgate.diagnostics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.testing.StandardErrorCapture;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A rule whose key most requests lack protects less than its author thinks: said once, aptly. */
class MissingKeyAdvisorTest {

  @RegisterExtension final StandardErrorCapture err = new StandardErrorCapture();

  private List<String> afterRequestsLacking(String key, boolean hasFallback) {
    MissingKeyAdvisor advisor = new MissingKeyAdvisor("r", key, hasFallback);
    for (int i = 0; i < 2_000; i++) {
      advisor.observe(false);
    }
    return err.agentLines();
  }

  @Test
  void aHeaderKeyNobodySendsSuggestsCheckingItsName() {
    List<String> lines = afterRequestsLacking("header:X-Api-Key", false);
    assertEquals(1, lines.size(), err.text());
    assertTrue(lines.get(0).contains("Check the key's name"), lines.get(0));
  }

  @Test
  void aPrincipalKeyNamesUnauthenticatedRequests() {
    List<String> lines = afterRequestsLacking("principal", false);
    assertEquals(1, lines.size(), err.text());
    assertTrue(lines.get(0).contains("requests without an authenticated user are not limited"),
        lines.get(0));
  }

  @Test
  void withAFallbackItSaysWhoCountsThem() {
    List<String> lines = afterRequestsLacking("principal", true);
    assertEquals(1, lines.size(), err.text());
    assertTrue(lines.get(0).contains("counted by the rule's key-fallback instead"), lines.get(0));
  }

  @Test
  void requestsWithTheirKeySayNothing() {
    MissingKeyAdvisor advisor = new MissingKeyAdvisor("r", "principal", false);
    for (int i = 0; i < 2_000; i++) {
      advisor.observe(true);
    }
    assertEquals(List.of(), err.agentLines());
  }
}
