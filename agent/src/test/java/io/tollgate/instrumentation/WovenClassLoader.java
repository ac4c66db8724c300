package io.tollgate.instrumentation;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.io.InputStream;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Defines the woven copy of one test class beside the original, so that a test can run it: the
 * class's own name resolves to the copy (a child-first loader for that one name), everything else
 * to the test class path. The JVM verifies the copy as it links it, as it would in an application.
 */
final class WovenClassLoader extends ClassLoader {

  private final String name;
  private final byte[] classFile;
  private Class<?> defined;

  private WovenClassLoader(String name, byte[] classFile) {
    super(WovenClassLoader.class.getClassLoader());
    this.name = name;
    this.classFile = classFile;
  }

  /** The class {@code original}, woven, defined, linked and initialized. */
  static Class<?> woven(Class<?> original) throws Exception {
    return woven(original.getName(), classFile(original.getName()));
  }

  static Class<?> woven(String name, byte[] classFile) throws Exception {
    EntryPointWeaving.WovenClass woven = AllEntryPoints.WEAVING.weave(classFile);
    assertNotNull(woven, name + " has an entry point to weave");
    return Class.forName(name, true, new WovenClassLoader(name, woven.classFile));
  }

  @Override
  protected synchronized Class<?> loadClass(String className, boolean resolve)
      throws ClassNotFoundException {
    if (!className.equals(name)) {
      return super.loadClass(className, resolve);
    }
    if (defined == null) {
      defined = defineClass(name, classFile, 0, classFile.length);
    }
    return defined;
  }

  static byte[] classFile(String className) throws IOException {
    String resource = "/" + className.replace('.', '/') + ".class";
    try (InputStream in = WovenClassLoader.class.getResourceAsStream(resource)) {
      assertNotNull(in, resource);
      return in.readAllBytes();
    }
  }

  /** The class file as a Java 5 compiler would have written it: version 49, no stack map frames. */
  static byte[] asJava5(byte[] classFile) {
    ClassReader reader = new ClassReader(classFile);
    ClassWriter writer = new ClassWriter(0);
    reader.accept(
        new ClassVisitor(Opcodes.ASM9, writer) {
          @Override
          public void visit(int version, int access, String name, String signature,
              String superName, String[] interfaces) {
            super.visit(Opcodes.V1_5, access, name, signature, superName, interfaces);
          }
        },
        ClassReader.SKIP_FRAMES);
    return writer.toByteArray();
  }
}
