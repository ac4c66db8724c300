package io.tollgate.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.limiters.Clock;
import io.tollgate.rules.RuleSetFactory;
import io.tollgate.testing.StandardErrorCapture;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
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

  @RegisterExtension final StandardErrorCapture stderr = new StandardErrorCapture();

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
  @ValueSource(strings = {"rules:\n", "client-ip:\n  trusted-proxies: 1\nrules:\n",
      "rules: ~\n", "rules:   # later\n"})
  void anEmptyRulesKeyKeepsTheRulesInForce(String text) throws Exception {
    Path file = dir.resolve("rules.yaml");
    RulesHolder holder = loaded(file);

    Files.write(file, text.getBytes(StandardCharsets.UTF_8));

    assertFalse(holder.reloadIfChanged());
    assertEquals(1, holder.current().size(), "the last good rules");
    assertEquals(1, lines(file + ": line ").size(), "the problem, with the file and its line");
    assertEquals(1, lines("was not applied (1 problem); the last good rules stay in force").size());
  }

  @ParameterizedTest(name = "''{0}''")
  @ValueSource(strings = {"rules: []\n", "client-ip:\n  trusted-proxies: 1\nrules: []\n"})
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

  @Test
  void aDeletedFileIsReportedOnceAndItsReturnOnce() throws Exception {
    Path file = dir.resolve("rules.yaml");
    RulesHolder holder = loaded(file);
    Files.delete(file);

    for (int poll = 0; poll < 5; poll++) {
      assertFalse(holder.reloadIfChanged());
    }
    assertEquals(List.of("[tollgate] ERROR the rules file " + file + " does not exist; the last"
        + " good rules stay in force (1 rule: hello)"), lines("does not exist"));
    assertEquals(1, holder.current().size(), "the last good rules");

    Files.write(file, ONE_RULE.getBytes(StandardCharsets.UTF_8));
    for (int poll = 0; poll < 3; poll++) {
      assertFalse(holder.reloadIfChanged(), "the same rules: nothing to apply");
    }
    assertEquals(List.of("[tollgate] the rules file " + file + " can be read again; it is"
        + " unchanged; the last good rules stay in force (1 rule: hello)"), lines("read again"));
    assertEquals(1, lines("does not exist").size());
  }

  @Test
  void aFileThatComesBackChangedIsApplied() throws Exception {
    Path file = dir.resolve("rules.yaml");
    RulesHolder holder = loaded(file);
    Files.delete(file);
    assertFalse(holder.reloadIfChanged());

    Files.write(file, ONE_RULE.replace("limit: 3", "limit: 4").getBytes(StandardCharsets.UTF_8));
    assertTrue(holder.reloadIfChanged());
    assertEquals(List.of("[tollgate] the rules file " + file + " can be read again"),
        lines("read again"));
    assertEquals(1, lines("reloaded 1 rule: hello").size());
  }

  @Test
  void aHugeFileIsRefusedOnceAndTheRulesStay() throws Exception {
    Path file = dir.resolve("rules.yaml");
    RulesHolder holder = loaded(file);
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.setLength(600L * 1024 * 1024); // sparse; reading it whole once ended a 256 MB JVM
    }

    assertFalse(holder.reloadIfChanged());
    assertFalse(holder.reloadIfChanged());

    assertEquals(List.of("[tollgate] ERROR the rules file " + file + " is 629145600 bytes"
        + " (600 MiB), more than the 4194304 bytes (4 MiB) a rules file may have; it was not read;"
        + " the last good rules stay in force (1 rule: hello)"), lines("MiB"));
    assertEquals(1, holder.current().size());
  }

  @Test
  void useFileSaysWhetherTheFilesRulesAreInForce() throws Exception {
    Path file = dir.resolve("rules.yaml");
    RulesHolder holder = new RulesHolder(new RuleSetFactory(Clock.system()));
    assertFalse(holder.useFile(dir.resolve("missing.yaml").toString()));
    Files.write(file, "rules:\n  - name: [\n".getBytes(StandardCharsets.UTF_8));
    assertFalse(holder.useFile(file.toString()), "an invalid file");
    Files.write(file, "rules: []\n".getBytes(StandardCharsets.UTF_8));
    assertTrue(holder.useFile(file.toString()), "no rules, on purpose");
  }

  /**
   * {@code attach} and the agent's start read the file until two reads in a row agree, as the
   * watcher's polls do: each row is what the successive reads of the file return while it is
   * rewritten in place, and the rules put in force.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "truncated, then written      | EMPTY, ONE, ONE        | 1",
      "half, then whole             | HALF, TWO, TWO         | 2",
      "whole at once                | TWO, TWO               | 2",
      "empty, half, then whole      | EMPTY, HALF, TWO, TWO  | 2",
  })
  void useFileAppliesOnlyWhatTwoReadsInARowAgreeOn(String what, String reads, int rules)
      throws Exception {
    RulesHolder holder = holderReading(reads);

    assertTrue(holder.useFile(dir.resolve("rules.yaml").toString()));

    assertEquals(rules, holder.current().size());
    assertEquals(1, lines("loaded").size(), "applied once, what the reads agreed on");
  }

  @Test
  void aFileThatNeverHoldsStillIsLeftToTheWatcher() throws Exception {
    StringBuilder reads = new StringBuilder();
    for (int i = 0; i < RulesHolder.SETTLE_READS; i++) {
      reads.append(i % 2 == 0 ? "EMPTY, " : "HALF, ");
    }
    RulesHolder holder = holderReading(reads + "TWO, TWO");

    assertFalse(holder.useFile(dir.resolve("rules.yaml").toString()));
    assertTrue(holder.current().isEmpty());
    assertEquals(1, lines("applied once two polls read the same content").size());

    assertFalse(holder.reloadWhenSettled(), "the whole file, read once");
    assertTrue(holder.reloadWhenSettled(), "and again: it holds still");
    assertEquals(2, holder.current().size());
  }

  /** A holder whose reads of any file return, in turn, the contents named in {@code reads}. */
  private RulesHolder holderReading(String reads) {
    Map<String, String> contents = Map.of(
        "EMPTY", "",
        "ONE", ONE_RULE,
        "HALF", ONE_RULE + "  - name: bye\n",
        "TWO", ONE_RULE + ONE_RULE.substring("rules:\n".length()).replace("hello", "bye"));
    Iterator<String> next = Arrays.stream(reads.split(","))
        .map(String::trim).iterator();
    return new RulesHolder(new RuleSetFactory(Clock.system()),
        file -> contents.get(next.next()).getBytes(StandardCharsets.UTF_8), 0);
  }

  /** The watcher's polls, as an editor saving in place meets them: truncate, then write. */
  @Test
  void aFileCaughtEmptyWhileBeingWrittenIsNeitherAppliedNorReported() throws Exception {
    Path file = dir.resolve("rules.yaml");
    RulesHolder holder = loaded(file);

    Files.write(file, new byte[0]); // the poll falls between the truncation and the write
    assertFalse(holder.reloadWhenSettled());
    Files.write(file, ONE_RULE.replace("limit: 3", "limit: 4").getBytes(StandardCharsets.UTF_8));
    assertFalse(holder.reloadWhenSettled(), "changed since the last poll: not settled yet");
    assertTrue(holder.reloadWhenSettled(), "the same bytes at two polls: applied");

    assertEquals(List.of(), lines("ERROR"));
    assertEquals(1, lines("reloaded 1 rule: hello").size());
  }

  @Test
  void aFileCaughtHalfWrittenNeverPutsHalfTheRulesInForce() throws Exception {
    Path file = dir.resolve("rules.yaml");
    RulesHolder holder = loaded(file);
    String twoRules = ONE_RULE + ONE_RULE.substring("rules:\n".length()).replace("hello", "bye");

    Files.write(file, ONE_RULE.replace("limit: 3", "limit: 9").getBytes(StandardCharsets.UTF_8));
    assertFalse(holder.reloadWhenSettled(), "the first half: a valid file of one rule");
    Files.write(file, twoRules.getBytes(StandardCharsets.UTF_8));
    assertFalse(holder.reloadWhenSettled());
    assertTrue(holder.reloadWhenSettled());

    assertEquals(2, holder.current().size());
    assertEquals(List.of(), lines("reloaded 1 rule"));
  }

  @Test
  void aBrokenFileIsReportedOnceItHoldsStill() throws Exception {
    Path file = dir.resolve("rules.yaml");
    RulesHolder holder = loaded(file);

    Files.write(file, "rules:\n  - name: [\n".getBytes(StandardCharsets.UTF_8));
    assertFalse(holder.reloadWhenSettled());
    assertEquals(List.of(), lines("was not applied"), "maybe still being written");
    for (int poll = 0; poll < 3; poll++) {
      assertFalse(holder.reloadWhenSettled());
    }

    assertEquals(1, lines("was not applied (1 problem)").size(), "reported once, at the 2nd poll");
    assertEquals(1, holder.current().size(), "the last good rules");
  }

  @Test
  void anUnchangedFileNeedsNoSecondPoll() throws Exception {
    Path file = dir.resolve("rules.yaml");
    RulesHolder holder = loaded(file);
    assertFalse(holder.reloadWhenSettled());
    assertFalse(holder.reloadWhenSettled());
    assertEquals(List.of(), lines("reloaded"));
  }

  private List<String> lines(String containing) {
    return stderr.agentLines().stream()
        .filter(l -> l.contains(containing))
        .collect(Collectors.toList());
  }
}
