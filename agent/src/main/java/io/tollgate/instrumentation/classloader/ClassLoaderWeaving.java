package io.tollgate.instrumentation.classloader;

import io.tollgate.instrumentation.DeclaredMethods;
import java.nio.charset.StandardCharsets;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Weaves {@link LoadClassWeaver} into the {@code loadClass(String)} and {@code loadClass(String,
 * boolean)} a class file declares; leaves every other class file alone.
 *
 * <p>Every class the application loads passes through here, so the common answer comes from the
 * constant pool alone: a class that declares {@code loadClass} has the string {@code loadClass}
 * there. Of those (mostly classes that call it), the method headers tell the few that declare it
 * ({@link DeclaredMethods}), and only these are woven: their bytes, without ASM ({@link
 * LoadClassPrologue}), or by ASM for the few that one does not take. A method is woven by its
 * name and descriptor, as an entry point is, without walking the class's super types (which would load
 * classes while one is being defined): an instance method {@code Class loadClass(String)} outside
 * a class loader, say a resolver's, only gets the bootstrap's answer for the agent's own package.
 */
final class ClassLoaderWeaving {

  /** The bridge's package, as class names in it start. */
  static final String BOOTSTRAP_PACKAGE_PREFIX = "io.tollgate.bootstrap.";

  private static final byte[] LOAD_CLASS = "loadClass".getBytes(StandardCharsets.US_ASCII);
  private static final String ONE_ARGUMENT = "(Ljava/lang/String;)Ljava/lang/Class;";
  private static final String TWO_ARGUMENTS = "(Ljava/lang/String;Z)Ljava/lang/Class;";
  private static final int NOT_WOVEN =
      Opcodes.ACC_STATIC | Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE | Opcodes.ACC_BRIDGE;

  private final String prefix;
  private final LoadClassPrologue prologue;

  /** @param prefix names answered by the bootstrap loader start with it */
  ClassLoaderWeaving(String prefix) {
    this.prefix = prefix;
    this.prologue = new LoadClassPrologue(prefix);
  }

  static ClassLoaderWeaving ofBootstrapPackage() {
    return new ClassLoaderWeaving(BOOTSTRAP_PACKAGE_PREFIX);
  }

  /** The class file with its {@code loadClass} methods woven, or null when it declares none. */
  byte[] weave(byte[] classFile) {
    return mentionsLoadClass(classFile) ? weaveMentioning(classFile) : null;
  }

  /**
   * As {@link #weave}, for a class file already known to mention {@code loadClass} (the agent's
   * transformer reads the constant pool once for every question it has of a class).
   */
  byte[] weaveMentioning(byte[] classFile) {
    if (!DeclaredMethods.any(classFile, LOAD_CLASS_METHOD)) {
      return null; // it only calls loadClass: most of those that get this far, not read by ASM
    }
    byte[] woven = prologue.weave(classFile);
    if (woven != LoadClassPrologue.CANNOT) {
      return woven;
    }
    ClassReader reader = new ClassReader(classFile);
    if ((reader.getAccess() & (Opcodes.ACC_INTERFACE | Opcodes.ACC_MODULE)) != 0) {
      return null;
    }
    Weave weave = new Weave(new ClassWriter(reader, 0));
    reader.accept(weave, ClassReader.EXPAND_FRAMES);
    return weave.writer.toByteArray();
  }

  /**
   * A {@code loadClass} to weave, as {@link Weave} picks it (from the raw access flags: ASM adds
   * only flags that {@link #isLoadClass} does not look at).
   */
  private static final DeclaredMethods.Test LOAD_CLASS_METHOD =
      new DeclaredMethods.Test() {
        @Override
        public boolean accepts(String owner, int access, String name, String descriptor) {
          return isLoadClass(access, name, descriptor);
        }
      };

  static boolean isLoadClass(int access, String name, String descriptor) {
    return (access & NOT_WOVEN) == 0
        && name.equals("loadClass")
        && (descriptor.equals(ONE_ARGUMENT) || descriptor.equals(TWO_ARGUMENTS));
  }

  private final class Weave extends ClassVisitor {
    final ClassWriter writer;
    String owner;
    int majorVersion;

    Weave(ClassWriter writer) {
      super(Opcodes.ASM9, writer);
      this.writer = writer;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName,
        String[] interfaces) {
      owner = name;
      majorVersion = version & 0xFFFF;
      super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
        String[] exceptions) {
      MethodVisitor target = super.visitMethod(access, name, descriptor, signature, exceptions);
      if (target == null || !isLoadClass(access, name, descriptor)) {
        return target;
      }
      return new LoadClassWeaver(target, owner, descriptor, prefix, majorVersion);
    }
  }

  /** Whether the constant pool holds the string {@code loadClass}; false for unreadable bytes. */
  static boolean mentionsLoadClass(byte[] b) {
    try {
      if (b == null || b.length < 10 || readInt(b, 0) != 0xCAFEBABE) {
        return false;
      }
      int count = readUnsignedShort(b, 8);
      int at = 10;
      for (int index = 1; index < count; index++) {
        switch (b[at] & 0xFF) {
          case 1: // Utf8
            int length = readUnsignedShort(b, at + 1);
            if (length == LOAD_CLASS.length && equalsAt(b, at + 3, LOAD_CLASS)) {
              return true;
            }
            at += 3 + length;
            break;
          case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18:
            at += 5;
            break;
          case 5: case 6: // Long, Double: two entries
            at += 9;
            index++;
            break;
          case 7: case 8: case 16: case 19: case 20:
            at += 3;
            break;
          case 15:
            at += 4;
            break;
          default:
            return false; // a constant pool this reader does not know
        }
      }
      return false;
    } catch (RuntimeException notAClassFileWeKnow) {
      return false;
    }
  }

  private static boolean equalsAt(byte[] b, int from, byte[] text) {
    for (int i = 0; i < text.length; i++) {
      if (b[from + i] != text[i]) {
        return false;
      }
    }
    return true;
  }

  private static int readUnsignedShort(byte[] b, int at) {
    return ((b[at] & 0xFF) << 8) | (b[at + 1] & 0xFF);
  }

  private static int readInt(byte[] b, int at) {
    return (readUnsignedShort(b, at) << 16) | readUnsignedShort(b, at + 2);
  }
}
