package io.tollgate.instrumentation.classloader;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * The class loaders the class-loader weaving tests weave: their class files (as compiled, as Java 5
 * wrote them), an instance defined from given bytes, and what its {@code loadClass} answers.
 */
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

  /** An instance of this package's loader {@code simpleName}, its class defined from the bytes. */
  static ClassLoader instance(String simpleName, byte[] classFile) throws Exception {
    String name = LoaderClassFiles.class.getPackageName() + "." + simpleName;
    Class<?> type =
        new DefinedAlone(LoaderClassFiles.class.getClassLoader(), name, classFile).loadClass(name);
    return (ClassLoader) type.getDeclaredConstructor().newInstance();
  }

  /** What {@code loadClass(name)} answers: the bootstrap's class, or the loader's refusal. */
  static String load(ClassLoader loader, String simpleName, String name) throws Exception {
    Method loadClass = loader.getClass().getDeclaredMethod("loadClass",
        simpleName.endsWith("WithOneArgument")
            ? new Class<?>[] {String.class}
            : new Class<?>[] {String.class, boolean.class});
    loadClass.setAccessible(true);
    try {
      Object[] arguments = loadClass.getParameterCount() == 1
          ? new Object[] {name}
          : new Object[] {name, false};
      Class<?> found = (Class<?>) loadClass.invoke(loader, arguments);
      assertNull(found.getClassLoader(), found + " comes from the bootstrap loader");
      return "the bootstrap's";
    } catch (InvocationTargetException e) {
      assertTrue(e.getCause() instanceof ClassNotFoundException, e.getCause().toString());
      return e.getCause().getMessage();
    }
  }

  /** Defines one class from given bytes; every other class comes from its parent. */
  static final class DefinedAlone extends ClassLoader {
    private final String name;
    private final byte[] classFile;

    DefinedAlone(ClassLoader parent, String name, byte[] classFile) {
      super(parent);
      this.name = name;
      this.classFile = classFile;
    }

    @Override
    protected Class<?> loadClass(String className, boolean resolve)
        throws ClassNotFoundException {
      synchronized (getClassLoadingLock(className)) {
        if (!className.equals(name)) {
          return super.loadClass(className, resolve);
        }
        Class<?> defined = findLoadedClass(className);
        return defined != null ? defined : defineClass(name, classFile, 0, classFile.length);
      }
    }
  }
}
