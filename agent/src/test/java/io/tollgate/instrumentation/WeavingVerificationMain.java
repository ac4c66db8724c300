package io.tollgate.instrumentation;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Weaves and verifies corpora in a JVM of its own, so that {@link WeavingVerificationIT} can run
 * the proof on each JDK (and on corpora compiled for a newer Java than the build's). Arguments:
 * the folder of the corpora, then the names of those to verify.
 *
 * <p>Writes, on standard output: first whether the verifier refused a deliberately broken class
 * where the corpora's classes are linked ({@code CANARY VerifyError}: otherwise nothing below
 * proves anything), then for each corpus its description and one {@code RESULT} line, which the
 * test reads.
 */
public final class WeavingVerificationMain {

  private WeavingVerificationMain() {}

  public static void main(String[] args) throws Exception {
    Path corpora = Paths.get(args[0]);
    System.out.println("CANARY " + canary());
    PrintStream standardError = System.err;
    for (int i = 1; i < args.length; i++) {
      // The agent logs each class it wove, and each it failed to weave, to standard error.
      ByteArrayOutputStream agentLog = new ByteArrayOutputStream();
      System.setErr(new PrintStream(agentLog, true, StandardCharsets.UTF_8));
      WeavingVerificationCorpus.Result result;
      try {
        result = WeavingVerificationCorpus.in(corpora.resolve(args[i]))
            .weaveAndVerify(agentTransformer());
      } finally {
        System.setErr(standardError);
      }
      List<String> weavingFailures = agentLog.toString(StandardCharsets.UTF_8).lines()
          .filter(WeavingVerificationMain::isWeavingFailure).collect(Collectors.toList());
      System.out.print(result.describe());
      weavingFailures.forEach(line -> System.out.println("    WEAVING FAILED " + line));
      System.out.println(String.join(" ", "RESULT", result.corpus,
          String.valueOf(result.wovenClasses()), String.valueOf(result.wovenMethods()),
          String.valueOf(result.verified), String.valueOf(result.verifyErrors.size()),
          String.valueOf(result.missingDependencies.size()),
          String.valueOf(weavingFailures.size())));
    }
  }

  /**
   * A line of the agent's log that says a class was left unwoven (its weaving failed, or its loader
   * would not show it the bridge), or any other error.
   */
  private static boolean isWeavingFailure(String line) {
    return line.contains("could not instrument") || line.startsWith("[tollgate] ERROR");
  }

  /** The transformer as the agent installs it (see {@code AgentMain}). */
  private static EntryPointTransformer agentTransformer() {
    return new EntryPointTransformer(
        WeavingVerificationMain.class.getClassLoader(), AllEntryPoints.WEAVING);
  }

  /** What linking a class whose method returns a reference as an int threw: VerifyError is due. */
  static String canary() {
    byte[] broken = brokenClassFile("io/tollgate/instrumentation/VerifierCanary");
    Class<?> defined = new ClassLoader(null) {
      Class<?> define() {
        return defineClass("io.tollgate.instrumentation.VerifierCanary", broken, 0, broken.length);
      }
    }.define();
    try {
      WeavingVerificationCorpus.linked(defined);
      return "none";
    } catch (LinkageError e) {
      return e.getClass().getSimpleName();
    }
  }

  /** {@code int broken() { return this; }}. */
  private static byte[] brokenClassFile(String internalName) {
    ClassWriter writer = new ClassWriter(0);
    writer.visit(Opcodes.V1_8, Opcodes.ACC_PUBLIC, internalName, null, "java/lang/Object", null);
    MethodVisitor method = writer.visitMethod(Opcodes.ACC_PUBLIC, "broken", "()I", null, null);
    method.visitCode();
    method.visitVarInsn(Opcodes.ALOAD, 0);
    method.visitInsn(Opcodes.IRETURN);
    method.visitMaxs(1, 1);
    method.visitEnd();
    writer.visitEnd();
    return writer.toByteArray();
  }
}
