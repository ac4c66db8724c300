package io.tollgate.instrumentation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.it.Jdk;
import io.tollgate.testing.Progress;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The weaving, proven on the jars of real servers and frameworks rather than on the test apps:
 * every class in them that declares an entry point is woven by the agent's own transformer,
 * defined in a fresh class loader and linked, so that the JVM's verifier checks the hand-written
 * stack map frames of every woven method. None may fail. Each corpus's counts (woven classes and
 * methods per jar) are in the test's output and in {@code target/weave-corpus/summary-jdkN.txt}.
 *
 * <p>The jars are fetched by Maven into {@code target/weave-corpus/NAME/}, one folder per corpus
 * with its dependencies, so that no two versions of a class ever share a class path (see the
 * {@code weave-corpus-*} executions in agent/pom.xml). A woven class that cannot be linked because
 * a class it needs is in none of them (an optional dependency) is not verified; those are counted
 * apart, and must stay few. The corpora are verified on each JDK the suite runs on, in a JVM of
 * its own ({@link WeavingVerificationMain}), one per JDK.
 */
class WeavingVerificationIT {

  private static final Path CORPORA =
      Paths.get(System.getProperty("tollgate.weave.corpus", "target/weave-corpus"));
  /** At most this share of a corpus's woven classes may go unverified for a missing dependency. */
  private static final double MAX_UNLINKED_SHARE = 0.05;

  /**
   * Each corpus; whether it must have classes woven today (servlet containers, Spring MVC and
   * Jersey do, their entry points exist; on RESTEasy and CXF whatever weaves there is counted);
   * and the oldest Java its classes run on.
   */
  private static final List<Corpus> CORPUS_TABLE = List.of(
      new Corpus("tomcat9-embed", true, 8),
      new Corpus("tomcat9-catalina", true, 8),
      new Corpus("tomcat10-embed", true, 11),
      new Corpus("tomcat10-catalina", true, 11),
      new Corpus("tomcat11-embed", true, 17),
      new Corpus("tomcat11-catalina", true, 17),
      new Corpus("jetty9", true, 8),
      new Corpus("jetty11", true, 11),
      new Corpus("jetty12-ee8", true, 17),
      new Corpus("jetty12-ee10", true, 17),
      new Corpus("undertow", true, 11),
      new Corpus("payara-micro7", true, 21),
      new Corpus("servlet-api-javax4", true, 8),
      new Corpus("servlet-api-jakarta5", true, 8),
      new Corpus("servlet-api-jakarta6", true, 11),
      new Corpus("spring-webmvc5", true, 8),
      new Corpus("spring-webmvc6", true, 17),
      new Corpus("spring-webmvc7", true, 17),
      new Corpus("jersey2", true, 8),
      new Corpus("jersey3", true, 11),
      new Corpus("jersey4", true, 17),
      new Corpus("resteasy6", false, 11),
      new Corpus("resteasy7", false, 17),
      new Corpus("cxf4", false, 17));

  /** What each JDK's run found, by corpus name; each JDK's corpora run once, in one JVM. */
  private static final Map<String, Map<String, Result>> RESULTS = new HashMap<>();

  static Stream<Arguments> corporaAndJdks() {
    List<Arguments> cases = new ArrayList<>();
    for (Jdk jdk : Jdk.all()) {
      for (Corpus corpus : CORPUS_TABLE) {
        if (jdk.feature() >= corpus.minimumJava) {
          cases.add(Arguments.of(corpus, jdk));
        }
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0} on {1}")
  @MethodSource("corporaAndJdks")
  void everyWovenClassPassesTheVerifier(Corpus corpus, Jdk jdk) throws Exception {
    Result result = resultsOn(jdk).get(corpus.name);
    assertTrue(result != null, "no result for " + corpus + " on " + jdk);
    assertEquals(0, result.weavingFailures, "classes the transformer failed to weave\n" + result);
    assertEquals(0, result.verifyErrors, "woven classes the JVM refused\n" + result);
    assertEquals(result.wovenClasses, result.verified + result.missingDependencies, result.text);
    if (corpus.entryPointsToday) {
      assertTrue(result.wovenClasses > 0, corpus + " has entry points to weave\n" + result);
    }
    assertTrue(result.missingDependencies <= MAX_UNLINKED_SHARE * result.wovenClasses,
        "too many woven classes left unverified for want of a dependency; add it to the corpus\n"
            + result);
  }

  /** Every corpus Maven fetched is one the test above verifies, and the other way round. */
  @Test
  void everyFetchedCorpusIsInTheTable() throws IOException {
    List<String> listed = CORPUS_TABLE.stream().map(c -> c.name).sorted()
        .collect(Collectors.toList());
    try (Stream<Path> folders = Files.list(CORPORA)) {
      List<String> fetched = folders.filter(Files::isDirectory)
          .map(f -> f.getFileName().toString()).sorted().collect(Collectors.toList());
      assertEquals(listed, fetched, "the corpora in " + CORPORA.toAbsolutePath());
    }
  }

  /**
   * The proof rests on the JVM verifying a class when the corpus runner links it (and not later,
   * or never, as with {@code -Xverify:none}): the runner's canary, a class whose method returns a
   * reference as an int, must be refused there, on every JDK.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void theVerifierRefusesABrokenClassWhereTheRunnerLinks(Jdk jdk) throws Exception {
    assertEquals("VerifyError", resultsOn(jdk).get(CANARY).text);
  }

  static Stream<Jdk> jdks() {
    return Jdk.all().stream();
  }

  private static final String CANARY = "(canary)";

  private static synchronized Map<String, Result> resultsOn(Jdk jdk) throws Exception {
    Map<String, Result> known = RESULTS.get(jdk.toString());
    if (known == null) {
      known = run(jdk);
      RESULTS.put(jdk.toString(), known);
    }
    return known;
  }

  /** Runs {@link WeavingVerificationMain} on {@code jdk} over the corpora that run there. */
  private static Map<String, Result> run(Jdk jdk) throws Exception {
    List<String> command = new ArrayList<>(List.of(jdk.javaExecutable(), "-cp", System.getProperty("java.class.path"), WeavingVerificationMain.class.getName(),
        CORPORA.toAbsolutePath().toString()));
    for (Corpus corpus : CORPUS_TABLE) {
      if (jdk.feature() >= corpus.minimumJava) {
        command.add(corpus.name);
      }
    }
    File output = File.createTempFile("weave-verification", ".txt");
    try {
      Process runner = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(output).start();
      if (!runner.waitFor(15, TimeUnit.MINUTES)) {
        runner.destroyForcibly();
        throw new IllegalStateException("the corpus runner did not finish on " + jdk);
      }
      List<String> lines = Files.readAllLines(output.toPath(), StandardCharsets.UTF_8);
      String text = String.join(System.lineSeparator(), lines);
      Path summary = CORPORA.resolve("summary-jdk" + jdk.feature() + ".txt");
      Files.write(summary, lines, StandardCharsets.UTF_8);
      Progress.say("weaving verification", "verified on " + jdk + "; the figures: " + summary);
      assertEquals(0, runner.exitValue(), text);
      return Result.parse(lines);
    } finally {
      Files.deleteIfExists(output.toPath());
    }
  }

  /** A row of the corpus table. */
  static final class Corpus {
    final String name;
    final boolean entryPointsToday;
    final int minimumJava;

    Corpus(String name, boolean entryPointsToday, int minimumJava) {
      this.name = name;
      this.entryPointsToday = entryPointsToday;
      this.minimumJava = minimumJava;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /** One corpus's figures, as the runner's {@code RESULT} line gives them, with its description. */
  private static final class Result {
    int wovenClasses;
    int wovenMethods;
    int verified;
    int verifyErrors;
    int missingDependencies;
    int weavingFailures;
    String text = "";

    static Map<String, Result> parse(List<String> lines) {
      Map<String, Result> results = new HashMap<>();
      StringBuilder description = new StringBuilder();
      for (String line : lines) {
        if (line.startsWith("CANARY ")) {
          Result canary = new Result();
          canary.text = line.substring("CANARY ".length());
          results.put(CANARY, canary);
        } else if (line.startsWith("RESULT ")) {
          String[] f = line.split(" ");
          Result result = new Result();
          result.wovenClasses = Integer.parseInt(f[2]);
          result.wovenMethods = Integer.parseInt(f[3]);
          result.verified = Integer.parseInt(f[4]);
          result.verifyErrors = Integer.parseInt(f[5]);
          result.missingDependencies = Integer.parseInt(f[6]);
          result.weavingFailures = Integer.parseInt(f[7]);
          result.text = description.toString();
          results.put(f[1], result);
          description.setLength(0);
        } else {
          description.append(line).append(System.lineSeparator());
        }
      }
      return results;
    }

    @Override
    public String toString() {
      return text;
    }
  }
}
