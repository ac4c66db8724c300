package io.tollgate.instrumentation;

import static io.tollgate.instrumentation.ClassFileBytes.POOL_COUNT;
import static io.tollgate.instrumentation.ClassFileBytes.UTF8;
import static io.tollgate.instrumentation.ClassFileBytes.indexPool;
import static io.tollgate.instrumentation.ClassFileBytes.looksLikeClassFile;
import static io.tollgate.instrumentation.ClassFileBytes.methodsAt;
import static io.tollgate.instrumentation.ClassFileBytes.readUnsignedShort;
import static io.tollgate.instrumentation.ClassFileBytes.skipMember;

import java.nio.charset.StandardCharsets;

/**
 * Whether a class file declares a method that a test accepts, read from its bytes alone: the
 * constant pool, then the header of each field and method, no code.
 *
 * <p>Why not ASM's {@code ClassReader}: its constant pool walk, its strings and its visitors cost
 * a class that only mentions what a weaving looks for (a class that calls {@code loadClass} or a
 * servlet's {@code service}, as many do) about as much as reading it to weave, all of it while the
 * application starts, interpreted, and then again in the JIT that compiles ASM for it. A class
 * that passes this test is read by ASM as before; one that does not is left alone, as ASM would
 * have left it.
 *
 * <p>Names are handed to the test decoded as Latin-1, one character per byte: equal to an ASCII
 * name exactly when the class file holds that name, which is all the weavings compare with (a
 * method or class name outside ASCII never equals one of theirs).
 */
public final class DeclaredMethods {

  /** What a weaving looks for in a declared method. */
  public interface Test {
    /**
     * @param owner the class's internal name ({@code org/example/Servlet})
     * @param access the method's access flags
     */
    boolean accepts(String owner, int access, String name, String descriptor);
  }

  private DeclaredMethods() {}

  /**
   * True when {@code classFile} declares a method {@code test} accepts; false when it declares
   * none, and for bytes that are not a readable class file.
   */
  public static boolean any(byte[] classFile, Test test) {
    try {
      return read(classFile, test);
    } catch (RuntimeException notAClassFileWeKnow) {
      return false;
    }
  }

  private static boolean read(byte[] b, Test test) {
    if (!looksLikeClassFile(b)) {
      return false;
    }
    int count = readUnsignedShort(b, POOL_COUNT);
    // Where each entry starts: only the class files a weaving picked get this far, a few in a
    // thousand, so the array is no cost to the common case.
    int[] entries = new int[count];
    int poolEnd = indexPool(b, entries);
    if (poolEnd < 0) {
      return false; // a constant pool this reader does not know
    }
    int thisClass = readUnsignedShort(b, poolEnd + 2);
    String owner = utf8(b, entries, readUnsignedShort(b, entries[thisClass] + 1));
    int at = methodsAt(b, poolEnd);
    int methods = readUnsignedShort(b, at);
    at += 2;
    for (int i = 0; i < methods; i++) {
      int access = readUnsignedShort(b, at);
      String name = utf8(b, entries, readUnsignedShort(b, at + 2));
      String descriptor = utf8(b, entries, readUnsignedShort(b, at + 4));
      if (test.accepts(owner, access, name, descriptor)) {
        return true;
      }
      at = skipMember(b, at);
    }
    return false;
  }

  private static String utf8(byte[] b, int[] entries, int index) {
    int at = entries[index];
    if ((b[at] & 0xFF) != UTF8) {
      throw new IllegalArgumentException("not a string: constant " + index);
    }
    return new String(b, at + 3, readUnsignedShort(b, at + 1), StandardCharsets.ISO_8859_1);
  }
}
