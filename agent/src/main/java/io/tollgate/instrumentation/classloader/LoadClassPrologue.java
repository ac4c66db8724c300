package io.tollgate.instrumentation.classloader;

import static io.tollgate.instrumentation.ClassFileBytes.POOL_COUNT;
import static io.tollgate.instrumentation.ClassFileBytes.POOL_START;
import static io.tollgate.instrumentation.ClassFileBytes.UTF8;
import static io.tollgate.instrumentation.ClassFileBytes.indexPool;
import static io.tollgate.instrumentation.ClassFileBytes.looksLikeClassFile;
import static io.tollgate.instrumentation.ClassFileBytes.methodsAt;
import static io.tollgate.instrumentation.ClassFileBytes.readInt;
import static io.tollgate.instrumentation.ClassFileBytes.readUnsignedShort;
import static io.tollgate.instrumentation.ClassFileBytes.skipMember;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * {@link LoadClassWeaver}'s code written into a class file's bytes, without ASM: the prologue's 24
 * bytes put before each {@code loadClass} method's own code, its 17 constants appended to the
 * constant pool, and everything else copied as it is.
 *
 * <p>Why: ASM's copy of a class ({@code new ClassWriter(reader, 0)}) first copies the whole constant
 * pool into its own table, then re-encodes the woven method with its stack map frames expanded and
 * compressed again: for the six class loaders a Spring Boot 3 start weaves (Tomcat's {@code
 * WebappClassLoaderBase} among them, 51 KB), about 40% of the agent's weaving CPU on the main
 * thread. A prologue at the start of a method shifts nothing that is relative: branches, switches
 * (24 is a multiple of 4, so their padding stays) and the method's stack map frames but its first
 * are as they were; the code's absolute offsets (exception handlers, line numbers, local
 * variables, {@code new} instructions in frames) move by 24. The prologue ends with a frame equal
 * to the method's entry frame, so the method's own first frame, relative to it, keeps its bytes.
 *
 * <p>A class file this does not take as it is (type annotations on a {@code loadClass}'s code, an
 * attribute there it does not know, a pool or a method too large) gets {@link #CANNOT}: ASM weaves
 * it as before.
 */
final class LoadClassPrologue {

  /** {@link #weave}'s answer when the class file is for ASM to weave. */
  static final byte[] CANNOT = new byte[0];

  /** The prologue's length: a multiple of 4, so that the switches' padding stays as it is. */
  static final int LENGTH = 24;
  private static final int ACC_STATIC_ABSTRACT_NATIVE_BRIDGE = 0x0008 | 0x0400 | 0x0100 | 0x0040;
  private static final int ACC_INTERFACE_OR_MODULE = 0x0200 | 0x8000;
  private static final int JAVA_6 = 50;
  private static final int MAX_POOL_COUNT = 65535;

  private static final byte[] LOAD_CLASS = ascii("loadClass");
  private static final byte[] ONE_ARGUMENT = ascii("(Ljava/lang/String;)Ljava/lang/Class;");
  private static final byte[] TWO_ARGUMENTS = ascii("(Ljava/lang/String;Z)Ljava/lang/Class;");
  private static final byte[] CODE = ascii("Code");
  private static final byte[] STACK_MAP_TABLE = ascii("StackMapTable");
  private static final byte[] LINE_NUMBER_TABLE = ascii("LineNumberTable");
  private static final byte[] LOCAL_VARIABLE_TABLE = ascii("LocalVariableTable");
  private static final byte[] LOCAL_VARIABLE_TYPE_TABLE = ascii("LocalVariableTypeTable");

  // The appended constants, by their place after the original pool
  private static final int PREFIX_STRING = 1;
  private static final int STARTS_WITH = 7;
  private static final int FOR_NAME = 13;
  private static final int EXCEPTION_CLASS = 15;
  private static final int STACK_MAP_TABLE_NAME = 16;
  private static final int CONSTANTS = 17;

  /** The appended constants, their references to each other counted from 0. */
  private final byte[] constants;

  /** @param prefix names answered by the bootstrap loader start with it */
  LoadClassPrologue(String prefix) {
    Out out = new Out(256);
    utf8(out, prefix); // 0
    out.u1(8).u2(0); // 1: String
    utf8(out, "java/lang/String"); // 2
    out.u1(7).u2(2); // 3: Class
    utf8(out, "startsWith"); // 4
    utf8(out, "(Ljava/lang/String;)Z"); // 5
    out.u1(12).u2(4).u2(5); // 6: NameAndType
    out.u1(10).u2(3).u2(6); // 7: Methodref String.startsWith
    utf8(out, "java/lang/Class"); // 8
    out.u1(7).u2(8); // 9: Class
    utf8(out, "forName"); // 10
    utf8(out, "(Ljava/lang/String;ZLjava/lang/ClassLoader;)Ljava/lang/Class;"); // 11
    out.u1(12).u2(10).u2(11); // 12: NameAndType
    out.u1(10).u2(9).u2(12); // 13: Methodref Class.forName
    utf8(out, "java/lang/Exception"); // 14
    out.u1(7).u2(14); // 15: Class
    utf8(out, "StackMapTable"); // 16
    constants = out.toByteArray();
  }

  /**
   * The class file with its {@code loadClass} methods woven; null when it is an interface or
   * declares none; {@link #CANNOT} when ASM is to weave it.
   */
  byte[] weave(byte[] b) {
    try {
      return looksLikeClassFile(b) ? write(b) : CANNOT;
    } catch (RuntimeException notAClassFileWeKnow) {
      return CANNOT;
    }
  }

  private byte[] write(byte[] b) {
    int count = readUnsignedShort(b, POOL_COUNT);
    if (count + CONSTANTS > MAX_POOL_COUNT) {
      return CANNOT;
    }
    int[] entries = new int[count];
    int poolEnd = indexPool(b, entries);
    if (poolEnd < 0) {
      return CANNOT;
    }
    if ((readUnsignedShort(b, poolEnd) & ACC_INTERFACE_OR_MODULE) != 0) {
      return null;
    }
    boolean frames = readUnsignedShort(b, 6) >= JAVA_6;
    Out out = new Out(b.length + constants.length + 256);
    out.bytes(b, 0, POOL_COUNT).u2(count + CONSTANTS).bytes(b, POOL_START, poolEnd - POOL_START);
    appendConstants(out, count);
    int at = methodsAt(b, poolEnd);
    int methods = readUnsignedShort(b, at);
    at += 2;
    out.bytes(b, poolEnd, at - poolEnd);
    int woven = 0;
    for (int i = 0; i < methods; i++) {
      int end = skipMember(b, at);
      if (!isLoadClass(b, entries, at)) {
        out.bytes(b, at, end - at);
      } else if (weaveMethod(out, b, entries, at, count, frames)) {
        woven++;
      } else {
        return CANNOT;
      }
      at = end;
    }
    if (woven == 0) {
      return null;
    }
    return out.bytes(b, at, b.length - at).toByteArray(); // the class's attributes
  }

  /** The same test as {@link ClassLoaderWeaving#isLoadClass}, on the method's bytes. */
  private static boolean isLoadClass(byte[] b, int[] entries, int at) {
    if ((readUnsignedShort(b, at) & ACC_STATIC_ABSTRACT_NATIVE_BRIDGE) != 0
        || !utf8Equals(b, entries, readUnsignedShort(b, at + 2), LOAD_CLASS)) {
      return false;
    }
    int descriptor = readUnsignedShort(b, at + 4);
    return utf8Equals(b, entries, descriptor, ONE_ARGUMENT)
        || utf8Equals(b, entries, descriptor, TWO_ARGUMENTS);
  }

  /** The method at {@code at} with the prologue; false when its code is for ASM to weave. */
  private boolean weaveMethod(Out out, byte[] b, int[] entries, int at, int base,
      boolean frames) {
    out.bytes(b, at, 8); // access, name, descriptor, attributes count
    int attributes = readUnsignedShort(b, at + 6);
    at += 8;
    boolean hadCode = false;
    for (int a = 0; a < attributes; a++) {
      int length = readInt(b, at + 2);
      if (utf8Equals(b, entries, readUnsignedShort(b, at), CODE)) {
        if (!weaveCode(out, b, entries, at, base, frames)) {
          return false;
        }
        hadCode = true;
      } else {
        out.bytes(b, at, 6 + length);
      }
      at += 6 + length;
    }
    return hadCode;
  }

  /** The Code attribute at {@code at} with the prologue before its code. */
  private boolean weaveCode(Out out, byte[] b, int[] entries, int at, int base, boolean frames) {
    int codeLength = readInt(b, at + 10);
    if (codeLength + LENGTH > 65535) {
      return false;
    }
    int start = out.length();
    out.u2(readUnsignedShort(b, at)).u4(0); // its length, once written
    out.u2(Math.max(readUnsignedShort(b, at + 6), 3)).bytes(b, at + 8, 2); // max stack, locals
    out.u4(codeLength + LENGTH);
    prologue(out, base);
    int code = at + 14;
    out.bytes(b, code, codeLength);
    int p = code + codeLength;
    int handlers = readUnsignedShort(b, p);
    out.u2(handlers + 1);
    // first, so that it comes before the method's own handlers (it covers only the prologue)
    out.u2(14).u2(20).u2(21).u2(base + EXCEPTION_CLASS);
    p += 2;
    for (int i = 0; i < handlers; i++, p += 8) {
      out.u2(readUnsignedShort(b, p) + LENGTH).u2(readUnsignedShort(b, p + 2) + LENGTH)
          .u2(readUnsignedShort(b, p + 4) + LENGTH).bytes(b, p + 6, 2);
    }
    int attributes = readUnsignedShort(b, p);
    p += 2;
    int attributesCountAt = out.length();
    out.u2(attributes);
    boolean hadFrames = false;
    for (int a = 0; a < attributes; a++) {
      int name = readUnsignedShort(b, p);
      int length = readInt(b, p + 2);
      int body = p + 6;
      if (utf8Equals(b, entries, name, STACK_MAP_TABLE)) {
        if (!frames) {
          return false;
        }
        hadFrames = true;
        int frameCount = readUnsignedShort(b, body);
        out.u2(name).u4(length + PROLOGUE_FRAMES_LENGTH).u2(frameCount + 2);
        prologueFrames(out, base);
        int framesAt = out.length();
        out.bytes(b, body + 2, length - 2);
        if (!out.shiftUninitialized(framesAt, frameCount)) {
          return false;
        }
      } else if (utf8Equals(b, entries, name, LINE_NUMBER_TABLE)) {
        out.bytes(b, p, 8);
        int lines = readUnsignedShort(b, body);
        for (int i = 0, q = body + 2; i < lines; i++, q += 4) {
          out.u2(readUnsignedShort(b, q) + LENGTH).bytes(b, q + 2, 2);
        }
      } else if (utf8Equals(b, entries, name, LOCAL_VARIABLE_TABLE)
          || utf8Equals(b, entries, name, LOCAL_VARIABLE_TYPE_TABLE)) {
        out.bytes(b, p, 8);
        int variables = readUnsignedShort(b, body);
        for (int i = 0, q = body + 2; i < variables; i++, q += 10) {
          out.u2(readUnsignedShort(b, q) + LENGTH).bytes(b, q + 2, 8);
        }
      } else {
        return false; // type annotations on the code, or an attribute not known here
      }
      p = body + length;
    }
    if (frames && !hadFrames) {
      out.u2(base + STACK_MAP_TABLE_NAME).u4(2 + PROLOGUE_FRAMES_LENGTH).u2(2);
      prologueFrames(out, base);
      out.put2(attributesCountAt, attributes + 1);
    }
    out.put4(start + 2, out.length() - start - 6);
    return true;
  }

  /**
   * As {@link LoadClassWeaver} writes it, but that the original code starts at 24, after two
   * {@code nop}s:
   *
   * <pre>
   *  0 aload_1; ifnull 23; aload_1; ldc_w prefix; invokevirtual String.startsWith; ifeq 23
   * 14 aload_1; iconst_0; aconst_null; invokestatic Class.forName   (to 20: Exception → 21)
   * 20 areturn
   * 21 pop                                   frame: the entry's locals, an Exception on the stack
   * 22 nop
   * 23 nop                                   frame: the entry's
   * </pre>
   */
  private static void prologue(Out out, int base) {
    out.u1(0x2b).u1(0xc6).u2(22); // aload_1, ifnull +22 (23)
    out.u1(0x2b).u1(0x13).u2(base + PREFIX_STRING); // aload_1, ldc_w
    out.u1(0xb6).u2(base + STARTS_WITH); // invokevirtual
    out.u1(0x99).u2(12); // ifeq +12 (23)
    out.u1(0x2b).u1(0x03).u1(0x01); // aload_1, iconst_0, aconst_null
    out.u1(0xb8).u2(base + FOR_NAME); // invokestatic
    out.u1(0xb0); // areturn
    out.u1(0x57); // pop
    out.u1(0x00).u1(0x00); // nop, nop
  }

  private static final int PROLOGUE_FRAMES_LENGTH = 5;

  /** The prologue's two frames, each relative to the one before (the first to the entry's). */
  private static void prologueFrames(Out out, int base) {
    out.u1(64 + 21).u1(7).u2(base + EXCEPTION_CLASS); // same locals, 1 stack item, at 21
    out.u1(23 - 21 - 1); // same frame, at 23
  }

  private void appendConstants(Out out, int base) {
    int at = 0;
    while (at < constants.length) {
      int tag = constants[at] & 0xFF;
      switch (tag) {
        case UTF8:
          int length = 3 + readUnsignedShort(constants, at + 1);
          out.bytes(constants, at, length);
          at += length;
          break;
        case 7: // Class
        case 8: // String
          out.u1(tag).u2(base + readUnsignedShort(constants, at + 1));
          at += 3;
          break;
        default: // NameAndType, Methodref: two references
          out.u1(tag).u2(base + readUnsignedShort(constants, at + 1))
              .u2(base + readUnsignedShort(constants, at + 3));
          at += 5;
      }
    }
  }

  private static boolean utf8Equals(byte[] b, int[] entries, int index, byte[] text) {
    int at = entries[index];
    if ((b[at] & 0xFF) != UTF8 || readUnsignedShort(b, at + 1) != text.length) {
      return false;
    }
    for (int i = 0; i < text.length; i++) {
      if (b[at + 3 + i] != text[i]) {
        return false;
      }
    }
    return true;
  }

  private static void utf8(Out out, String text) {
    byte[] bytes = ascii(text);
    out.u1(UTF8).u2(bytes.length).bytes(bytes, 0, bytes.length);
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  /** The woven class file as it is written. */
  private static final class Out {
    private byte[] bytes;
    private int length;

    Out(int capacity) {
      bytes = new byte[capacity];
    }

    int length() {
      return length;
    }

    Out u1(int value) {
      ensure(1);
      bytes[length++] = (byte) value;
      return this;
    }

    Out u2(int value) {
      ensure(2);
      bytes[length++] = (byte) (value >>> 8);
      bytes[length++] = (byte) value;
      return this;
    }

    Out u4(int value) {
      return u2(value >>> 16).u2(value & 0xFFFF);
    }

    Out bytes(byte[] from, int at, int count) {
      ensure(count);
      System.arraycopy(from, at, bytes, length, count);
      length += count;
      return this;
    }

    void put2(int at, int value) {
      bytes[at] = (byte) (value >>> 8);
      bytes[at + 1] = (byte) value;
    }

    void put4(int at, int value) {
      put2(at, value >>> 16);
      put2(at + 2, value & 0xFFFF);
    }

    /**
     * In the {@code count} frames written from {@code at}: each {@code new} instruction's offset
     * (an uninitialized object's type) moved by the prologue's length; false for a frame type the
     * class file format does not have.
     */
    boolean shiftUninitialized(int at, int count) {
      for (int i = 0; i < count; i++) {
        int type = bytes[at++] & 0xFF;
        if (type < 64) {
          continue; // same frame
        } else if (type < 128) {
          at = shiftTypes(at, 1);
        } else if (type < 247) {
          return false; // reserved
        } else if (type == 247) {
          at = shiftTypes(at + 2, 1);
        } else if (type < 252) {
          at += 2; // chop, same extended
        } else if (type < 255) {
          at = shiftTypes(at + 2, type - 251);
        } else { // full frame: its locals, then its stack
          at = shiftTypes(at + 4, readUnsignedShort(bytes, at + 2));
          at = shiftTypes(at + 2, readUnsignedShort(bytes, at));
        }
      }
      return true;
    }

    private int shiftTypes(int at, int count) {
      for (int i = 0; i < count; i++) {
        int tag = bytes[at++] & 0xFF;
        if (tag == 8) { // Uninitialized: the offset of its new instruction
          put2(at, readUnsignedShort(bytes, at) + LENGTH);
          at += 2;
        } else if (tag == 7) { // Object: a class constant, as it was
          at += 2;
        }
      }
      return at;
    }

    private void ensure(int more) {
      if (length + more > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
      }
    }

    byte[] toByteArray() {
      return length == bytes.length ? bytes : Arrays.copyOf(bytes, length);
    }
  }
}
