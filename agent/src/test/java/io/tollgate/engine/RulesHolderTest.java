package io.tollgate.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.limiters.Clock;
import io.tollgate.rules.RuleSetFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A rules file that holds nothing does not remove the rules in force: a file being rewritten
 * reads that way for a moment. Removing every rule takes saying so, with {@code rules: []}.
 */
class RulesHolderTest {

  private static final String ONE_RULE =
      "rules:\n  - name: hello\n    match: {path: /hello}\n    key: ip\n    limit: 3\n"
          + "    period: 1h\n";

  @TempDir Path dir;

  private RulesHolder loaded(Path file) throws Exception {
    Files.write(file, ONE_RULE.getBytes(StandardCharsets.UTF_8));
    RulesHolder holder = new RulesHolder(new RuleSetFactory(Clock.system()));
    holder.useFile(file.toString());
    assertEquals(1, holder.current().size());
    return holder;
  }

  @ParameterizedTest(name = "''{0}''")
  @ValueSource(strings = {"", "\n\n", "# being rewritten\n", "---\n", "\uFEFF\n", "  \n# a\n...\n"})
  void anEmptyFileKeepsTheRulesInForce(String text) throws Exception {
    Path file = dir.resolve("rules.yaml");
    RulesHolder holder = loaded(file);

    Files.write(file, text.getBytes(StandardCharsets.UTF_8));

    assertFalse(holder.reloadIfChanged());
    assertEquals(1, holder.current().size(), "the last good rules");
  }

  @ParameterizedTest(name = "''{0}''")
  @ValueSource(strings = {"rules: []\n", "rules:\n"})
  void sayingThereAreNoRulesRemovesThem(String text) throws Exception {
    Path file = dir.resolve("rules.yaml");
    RulesHolder holder = loaded(file);

    Files.write(file, text.getBytes(StandardCharsets.UTF_8));

    assertTrue(holder.reloadIfChanged());
    assertTrue(holder.current().isEmpty());
  }

  @Test
  void anEmptyFileAtStartIsNoRules() throws Exception {
    Path file = dir.resolve("rules.yaml");
    Files.write(file, new byte[0]);
    RulesHolder holder = new RulesHolder(new RuleSetFactory(Clock.system()));
    holder.useFile(file.toString());
    assertTrue(holder.current().isEmpty());
  }
}
