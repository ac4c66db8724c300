package io.tollgate.instrumentation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.testing.StandardErrorCapture;
import java.io.IOException;
import java.lang.instrument.ClassFileTransformer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The weaving, proven on the jars of real servers and frameworks rather than on the test apps:
 * every class in them that declares an entry point is woven by the agent's own transformer,
 * defined in a fresh class loader and linked, so that the JVM's verifier checks the hand-written
 * stack map frames of every woven method. None may fail; each corpus's counts (woven classes and
 * methods per jar) are printed, and kept in {@code target/weave-corpus/summary.txt}.
 *
 * <p>The jars are fetched by Maven into {@code target/weave-corpus/NAME/}, one folder per corpus
 * with its dependencies, so that no two versions of a class ever share a class path (see the
 * {@code weave-corpus-*} executions in agent/pom.xml). A woven class that cannot be linked because
 * a class it needs is in none of them (an optional dependency) is not verified; those are counted
 * apart, and must stay few.
 */
class WeavingVerificationIT {

  private static final Path CORPORA =
      Paths.get(System.getProperty("tollgate.weave.corpus", "target/weave-corpus"));
  /** At most this share of a corpus's woven classes may go unverified for a missing dependency. */
  private static final double MAX_UNLINKED_SHARE = 0.05;

  private static final Map<String, String> SUMMARY = new TreeMap<>();

  @RegisterExtension final StandardErrorCapture agentLog = new StandardErrorCapture();

  /**
   * Each corpus, and whether it must have classes woven today: servlet containers, Spring MVC and
   * Jersey do (their entry points exist); RESTEasy and CXF are counted, whatever weaves there.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
    "tomcat9-embed        | woven",
    "tomcat9-catalina     | woven",
    "tomcat10-embed       | woven",
    "tomcat10-catalina    | woven",
    "tomcat11-embed       | woven",
    "tomcat11-catalina    | woven",
    "jetty9               | woven",
    "jetty11              | woven",
    "jetty12-ee8          | woven",
    "jetty12-ee10         | woven",
    "undertow             | woven",
    "servlet-api-javax4   | woven",
    "servlet-api-jakarta5 | woven",
    "servlet-api-jakarta6 | woven",
    "spring-webmvc5       | woven",
    "spring-webmvc6       | woven",
    "spring-webmvc7       | woven",
    "jersey2              | woven",
    "jersey3              | woven",
    "jersey4              | woven",
    "resteasy6            | counted",
    "resteasy7            | counted",
    "cxf4                 | counted",
  })
  void everyWovenClassPassesTheVerifier(String corpusName, String expectation) throws IOException {
    Path folder = CORPORA.resolve(corpusName);
    assertTrue(Files.isDirectory(folder),
        folder.toAbsolutePath() + " is missing: Maven copies it in the pre-integration-test phase");

    WeavingVerificationCorpus.Result result =
        WeavingVerificationCorpus.in(folder).weaveAndVerify(agentTransformer());

    String described = result.describe();
    System.out.print(described);
    SUMMARY.put(corpusName, described);
    List<String> weavingFailures = agentLog.agentLines().stream()
        .filter(line -> line.contains("could not instrument")).collect(Collectors.toList());
    assertEquals(List.of(), weavingFailures, "classes the transformer failed to weave");
    assertEquals(List.of(), result.verifyErrors, "woven classes the JVM refused");
    if (expectation.equals("woven")) {
      assertTrue(result.wovenClasses() > 0, corpusName + " has entry points to weave");
    }
    assertTrue(result.missingDependencies.size() <= MAX_UNLINKED_SHARE * result.wovenClasses(),
        "too many woven classes left unverified for a missing dependency; add it to the corpus: "
            + result.missingDependencies);
  }

  /** Every corpus Maven fetched is one the test above verifies (and the other way round). */
  @Test
  void everyFetchedCorpusIsVerified() throws IOException {
    List<String> listed = Stream.of(WeavingVerificationIT.class.getDeclaredMethods())
        .filter(m -> m.getName().equals("everyWovenClassPassesTheVerifier"))
        .flatMap(m -> Stream.of(m.getAnnotation(CsvSource.class).value()))
        .map(row -> row.split("\\|")[0].trim()).sorted().collect(Collectors.toList());
    try (Stream<Path> folders = Files.list(CORPORA)) {
      List<String> fetched = folders.filter(Files::isDirectory)
          .map(f -> f.getFileName().toString()).sorted().collect(Collectors.toList());
      assertEquals(listed, fetched);
    }
  }

  /**
   * The proof rests on the JVM verifying what a class loader defines when the test links it (and
   * not later, or never, as with {@code -Xverify:none}): a class with a method that returns a
   * reference as an int must be refused there.
   */
  @Test
  void theVerifierRefusesABrokenClassWhereTheTestLinks() throws Exception {
    byte[] broken = brokenClassFile("io/tollgate/instrumentation/BrokenSample");
    Class<?> defined = new ClassLoader(null) {
      Class<?> define() {
        return defineClass("io.tollgate.instrumentation.BrokenSample", broken, 0, broken.length);
      }
    }.define();
    assertThrows(VerifyError.class, () -> WeavingVerificationCorpus.linked(defined));
  }

  @AfterAll
  static void writeSummary() throws IOException {
    if (SUMMARY.isEmpty() || !Files.isDirectory(CORPORA)) {
      return;
    }
    Files.write(CORPORA.resolve("summary.txt"),
        String.join("", SUMMARY.values()).getBytes(StandardCharsets.UTF_8),
        StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
  }

  /** The transformer as the agent installs it (see {@code AgentMain}). */
  private static ClassFileTransformer agentTransformer() {
    return new EntryPointTransformer(
        WeavingVerificationIT.class.getClassLoader(), EntryPointWeaving.all());
  }

  /** {@code int broken() { return this; }}: a reference where an int is due. */
  private static byte[] brokenClassFile(String internalName) {
    ClassWriter writer = new ClassWriter(0);
    writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, internalName, null, "java/lang/Object", null);
    MethodVisitor method =
        writer.visitMethod(Opcodes.ACC_PUBLIC, "broken", "()I", null, null);
    method.visitCode();
    method.visitVarInsn(Opcodes.ALOAD, 0);
    method.visitInsn(Opcodes.IRETURN);
    method.visitMaxs(1, 1);
    method.visitEnd();
    writer.visitEnd();
    return writer.toByteArray();
  }
}
