package io.tollgate.instrumentation.classloader;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.io.InputStream;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Opcodes;

/** The class files the class-loader weaving tests weave: as compiled, and as Java 5 wrote them. */
final class LoaderClassFiles {

  private LoaderClassFiles() {}

  /** A class of this package by its simple name, as compiled. */
  static byte[] classFile(String simpleName) throws IOException {
    return bytesOf(LoaderClassFiles.class.getPackageName() + "." + simpleName);
  }

  static byte[] bytesOf(String className) throws IOException {
    String resource = "/" + className.replace('.', '/') + ".class";
    try (InputStream in = LoaderClassFiles.class.getResourceAsStream(resource)) {
      assertNotNull(in, resource);
      return in.readAllBytes();
    }
  }

  /** The class as Java 5 wrote it: no stack map frames, and {@code ldc} for no class constant. */
  static byte[] asJava5(byte[] classFile) {
    ClassReader reader = new ClassReader(classFile);
    ClassWriter writer = new ClassWriter(0);
    reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
      @Override
      public void visit(int version, int access, String name, String signature, String superName,
          String[] interfaces) {
        super.visit(Opcodes.V1_5, access, name, signature, superName, interfaces);
      }
    }, ClassReader.SKIP_FRAMES);
    return writer.toByteArray();
  }
}
