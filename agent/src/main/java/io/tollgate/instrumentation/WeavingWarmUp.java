package io.tollgate.instrumentation;

import io.tollgate.diagnostics.EntryPoints;
import io.tollgate.engine.TollgateGate;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
import java.util.List;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * The first weave of an entry point, done once on the agent's start-up thread over a class file of
 * its own ({@link Sample}), so that the application's thread that loads its first entry point
 * (its main thread: a servlet, Spring's adapters, Tomcat's valve) finds ASM's reader and writer and
 * the weaving's own classes (some 40) loaded, verified and initialized rather than loading them
 * itself, on the application's critical path. What is woven is thrown away; only the classes
 * stay.
 *
 * <p>It goes through the same code as an application's class ({@link EntryPointWeaving#weave},
 * both passes, a weaver that keeps a scope and ends on throw, stack map frames read expanded and
 * written), so that what it loads follows that code as it changes, rather than a list of names.
 * The framework's own weaver ({@code RequestEntryWeaver}...) is not loaded here: each is loaded
 * when it first weaves, so an application loads its own frameworks' only.
 *
 * <p>Nothing waits for it: a class the application loads meanwhile is woven as before, its thread
 * loading whatever this has not loaded yet.
 */
public final class WeavingWarmUp {

  private WeavingWarmUp() {}

  /**
   * Weaves {@link Sample#handle} and returns the woven class file (never defined: the sample's
   * class is never loaded, only its bytes read); also loads the classes the agent's transformer
   * reaches around a weave.
   */
  public static byte[] run() throws IOException, ClassNotFoundException {
    // First what the transformer calls around a weave, the soonest needed: the class file checks
    // of the first candidate (which comes soon after premain), who can see the bridge and the
    // detected frameworks after a weave
    ClassLoader agent = WeavingWarmUp.class.getClassLoader();
    for (Class<?> type : new Class<?>[] {
        ClassFileBytes.class, DeclaredMethods.class, BridgeVisibility.class, EntryPoints.class}) {
      Class.forName(type.getName(), true, agent);
    }
    String sample = Sample.class.getName();
    EntryPointMethod handle =
        EntryPointMethod.inClass("warm-up", sample, "handle",
            "(Ljava/lang/Object;Ljava/lang/Object;)I", Weaver.class.getName());
    FrameworkModule module = new FrameworkModule() {
      @Override
      public List<EntryPointMethod> entryPoints() {
        return Collections.singletonList(handle);
      }

      @Override
      public EntryPointHandler handler(TollgateGate engine) {
        return null;
      }

      @Override
      public String requestName() {
        return "the warm-up's";
      }
    };
    byte[] classFile;
    try (InputStream in = WeavingWarmUp.class.getClassLoader()
        .getResourceAsStream(sample.replace('.', '/') + ".class")) {
      if (in == null) {
        throw new IOException("no class file for " + sample);
      }
      classFile = in.readAllBytes();
    }
    EntryPointWeaving.WovenClass woven =
        EntryPointWeaving.of(Collections.singletonList(module)).weave(classFile);
    if (woven == null) {
      throw new IllegalStateException("the warm-up found nothing to weave in " + sample);
    }
    return woven.classFile;
  }

  /**
   * The class file woven: one method with a branch and an exception handler, so that its weave
   * reads and writes stack map frames as a real entry point's does; and a lambda, so that its copy
   * reads method handles and bootstrap methods from the pool as most classes' does. Never loaded
   * as a class.
   */
  static final class Sample {
    int handle(Object request, Object response) {
      try {
        return request == null ? 0 : request.hashCode() + response.hashCode();
      } catch (RuntimeException e) {
        return -1;
      }
    }

    Runnable later(Object request) {
      return () -> request.hashCode();
    }
  }

  /** Weaves as the servlet's {@code RequestEntryWeaver} does. */
  static final class Weaver extends EntryPointWeaver {

    /** Created by {@code EntryPointMethod}, by reflection. */
    private Weaver(MethodVisitor target, WovenMethod method) {
      super(target, method, true, true);
    }

    @Override
    protected void atStart() {
      callEnter(0, 1);
      storeScope();
      loadScope();
      whenRefused();
      insn(Opcodes.ICONST_0);
      insn(Opcodes.IRETURN);
      originalCodeStarts();
    }

    @Override
    protected void beforeReturn(int opcode) {
      callExitOnReturn();
    }

    @Override
    protected void beforeThrow() {
      callExitOnThrow();
    }
  }
}
