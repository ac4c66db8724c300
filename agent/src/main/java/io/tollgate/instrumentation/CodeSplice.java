package io.tollgate.instrumentation;

import static io.tollgate.instrumentation.ClassFileBytes.POOL_COUNT;
import static io.tollgate.instrumentation.ClassFileBytes.POOL_START;
import static io.tollgate.instrumentation.ClassFileBytes.entryLength;
import static io.tollgate.instrumentation.ClassFileBytes.readInt;
import static io.tollgate.instrumentation.ClassFileBytes.readUnsignedShort;
import static io.tollgate.instrumentation.ClassFileBytes.takesTwoIndexes;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import net.bytebuddy.jar.asm.AnnotationVisitor;
import net.bytebuddy.jar.asm.Attribute;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.FieldVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.ModuleVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.RecordComponentVisitor;
import net.bytebuddy.jar.asm.TypePath;

/**
 * Weaves a few methods of a class file and copies the rest of it as bytes: the woven methods' code
 * is written by ASM into a class of its own, with a constant pool of its own, and spliced into the
 * original class file, its constants appended to the original pool.
 *
 * <p>Why: {@code new ClassWriter(reader, 0)}, which copies every method it is not asked to change,
 * first copies the whole constant pool into ASM's {@code SymbolTable} (a string decoded and a
 * hashed entry for each constant), so that the woven code can reuse the original's constants.
 * That copy was half of the weaving's CPU for the classes a Spring Boot 3 start weaves (Tomcat's
 * {@code Request} alone holds some 1,300 constants), on the application's main thread, and ASM's
 * most compiled methods. Here the woven code's constants are appended, duplicates of some original
 * ones, which the class file format allows: a class file a few hundred bytes longer, no copy.
 *
 * <p>The woven methods' own constant pool starts with placeholders ({@link #PLACEHOLDERS} longs,
 * two indexes each, cheaper for ASM to add than strings), so that ASM writes every {@code ldc} with
 * a two-byte index ({@code ldc_w}): its indices, moved past the original pool, do not fit in one
 * byte. A woven method that ASM's copy could weave but this
 * cannot take as it is ({@code invokedynamic}, a dynamic constant, type annotations on its code, a
 * pool that would pass 65,535 constants) gets {@code null} from {@link #weave}, and the caller
 * weaves the class the old way: the answer is the same class, written differently.
 */
public final class CodeSplice {

  /** The woven methods' pool holds these long placeholders first: indexes 1 to 256. */
  static final int PLACEHOLDERS = 128;
  /** Values no class is likely to hold: one that does is woven the old way. */
  private static final long FIRST_PLACEHOLDER = Long.MIN_VALUE + 0x7011_6a7e;
  private static final int FIRST_APPENDED = 2 * PLACEHOLDERS + 1;
  private static final int MAX_POOL_COUNT = 65535;

  /** Which methods of a class file are woven: the others are copied as they are. */
  public interface Woven {
    boolean isWoven(int access, String name, String descriptor);
  }

  /** A weaving: ASM's visitor that weaves into {@code writer}. */
  public interface Weaving {
    ClassVisitor into(ClassVisitor writer);
  }

  private CodeSplice() {}

  /**
   * The class file with the methods {@code woven} names woven by {@code weaving}, or null when
   * this cannot splice them (see the class comment): then {@code new ClassWriter(reader, 0)}.
   *
   * @param reader ASM's reader of {@code classFile}
   */
  public static byte[] weave(byte[] classFile, ClassReader reader, Woven woven, Weaving weaving) {
    ClassWriter writer = new ClassWriter(0);
    for (int i = 0; i < PLACEHOLDERS; i++) {
      writer.newConst(FIRST_PLACEHOLDER + i);
    }
    reader.accept(new OnlyWoven(weaving.into(writer), woven), ClassReader.EXPAND_FRAMES);
    try {
      return splice(classFile, writer.toByteArray());
    } catch (CannotSplice | RuntimeException e) {
      return null; // woven the old way, which may still succeed or say why not
    }
  }

  /** Why a class is woven the old way instead. */
  private static final class CannotSplice extends Exception {
    CannotSplice() {
      super(null, null, false, false);
    }
  }


  /** {@code original} with the code of the methods {@code methods} declares taken from there. */
  static byte[] splice(byte[] original, byte[] methods) throws CannotSplice {
    Pool woven = Pool.of(methods);
    if (woven.count <= FIRST_APPENDED) {
      throw new CannotSplice(); // ASM wrote its pool anew (a method too long for its jumps): no placeholders
    }
    Map<String, int[]> codes = codeAttributes(methods, woven);
    int[] bootstrapMethods = codes.remove(BOOTSTRAP_METHODS);
    Pool pool = Pool.of(original);
    int[] originalBootstrapMethods = bootstrapMethodsOf(original, pool);
    int bootstrapShift =
        originalBootstrapMethods == null
            ? 0
            : readUnsignedShort(original, originalBootstrapMethods[0] + 6);
    int appended = woven.count - FIRST_APPENDED;
    if (pool.count + appended > MAX_POOL_COUNT) {
      throw new CannotSplice();
    }
    int shift = pool.count - FIRST_APPENDED;
    Out out = new Out(original.length + (woven.end - woven.offsets[FIRST_APPENDED]) + methods.length);
    out.bytes(original, 0, POOL_COUNT);
    out.u2(pool.count + appended);
    out.bytes(original, POOL_START, pool.end - POOL_START);
    for (int index = FIRST_APPENDED; index < woven.count; index++) {
      int at = woven.offsets[index];
      if (at == 0) {
        continue; // the second index of a long or a double
      }
      appendConstant(out, methods, at, shift, bootstrapShift);
    }
    // the class's header, interfaces and fields as they are
    int at = pool.end + 6;
    at += 2 + 2 * readUnsignedShort(original, at);
    int fields = readUnsignedShort(original, at);
    at += 2;
    for (int i = 0; i < fields; i++) {
      at = skipMember(original, at);
    }
    out.bytes(original, pool.end, at - pool.end);
    int count = readUnsignedShort(original, at);
    out.bytes(original, at, 2);
    at += 2;
    int spliced = 0;
    for (int i = 0; i < count; i++) {
      int start = at;
      int[] code = codes.get(pool.utf8(original, readUnsignedShort(original, at + 2))
          + pool.utf8(original, readUnsignedShort(original, at + 4)));
      if (code == null) {
        at = skipMember(original, at);
        out.bytes(original, start, at - start);
        continue;
      }
      out.bytes(original, at, 8); // access, name, descriptor, attributes count
      int attributes = readUnsignedShort(original, at + 6);
      at += 8;
      boolean hadCode = false;
      for (int a = 0; a < attributes; a++) {
        int name = readUnsignedShort(original, at);
        int length = readInt(original, at + 2);
        if ("Code".equals(pool.utf8(original, name))) {
          hadCode = true;
          out.u2(name); // the original's "Code"
          out.code(methods, code[0], code[1], woven, shift);
        } else {
          out.bytes(original, at, 6 + length);
        }
        at += 6 + length;
      }
      if (!hadCode) {
        throw new CannotSplice(); // a method without code woven: not a weaving this knows
      }
      spliced++;
    }
    if (spliced != codes.size()) {
      throw new CannotSplice();
    }
    if (bootstrapMethods == null) {
      out.bytes(original, at, original.length - at); // the class's attributes
    } else {
      appendBootstrapMethods(out, original, at, originalBootstrapMethods, methods,
          bootstrapMethods, shift);
    }
    return out.toByteArray();
  }

  private static final String BOOTSTRAP_METHODS = "";

  /** The class's attributes from {@code at}, with the woven class's bootstrap methods appended. */
  private static void appendBootstrapMethods(Out out, byte[] original, int at, int[] existing,
      byte[] methods, int[] added, int shift) throws CannotSplice {
    int addedCount = readUnsignedShort(methods, added[0] + 6);
    int addedLength = added[1] - 8; // past its name, length and count
    if (existing == null) {
      // a BootstrapMethods attribute of its own, named by the woven class's constant
      out.u2(readUnsignedShort(original, at) + 1);
      out.bytes(original, at + 2, original.length - at - 2);
      out.u2(moved(readUnsignedShort(methods, added[0]), shift));
      out.u4(2 + addedLength);
      out.u2(addedCount);
    } else {
      int existingCount = readUnsignedShort(original, existing[0] + 6);
      if (existingCount + addedCount > MAX_POOL_COUNT) {
        throw new CannotSplice();
      }
      out.bytes(original, at, existing[0] + 2 - at); // up to its length
      out.u4(existing[1] - 6 + addedLength);
      out.u2(existingCount + addedCount);
      out.bytes(original, existing[0] + 8, existing[1] - 8);
      out.bootstrapMethods(methods, added[0] + 8, addedCount, shift);
      int after = existing[0] + existing[1];
      out.bytes(original, after, original.length - after);
      return;
    }
    out.bootstrapMethods(methods, added[0] + 8, addedCount, shift);
  }

  /** The original's BootstrapMethods attribute: its offset and whole length, or null. */
  private static int[] bootstrapMethodsOf(byte[] b, Pool pool) {
    int at = pool.end + 6;
    at += 2 + 2 * readUnsignedShort(b, at);
    for (int members = 0; members < 2; members++) { // fields, then methods
      int count = readUnsignedShort(b, at);
      at += 2;
      for (int i = 0; i < count; i++) {
        at = skipMember(b, at);
      }
    }
    int attributes = readUnsignedShort(b, at);
    at += 2;
    for (int a = 0; a < attributes; a++) {
      int length = readInt(b, at + 2);
      if ("BootstrapMethods".equals(pool.utf8(b, readUnsignedShort(b, at)))) {
        return new int[] {at, 6 + length};
      }
      at += 6 + length;
    }
    return null;
  }

  /**
   * The Code attribute of each method of the woven class, by name and descriptor: its offset past
   * the attribute's name, and its length from there.
   */
  private static Map<String, int[]> codeAttributes(byte[] b, Pool pool) throws CannotSplice {
    int at = pool.end + 6;
    at += 2 + 2 * readUnsignedShort(b, at);
    int fields = readUnsignedShort(b, at);
    at += 2;
    for (int i = 0; i < fields; i++) {
      at = skipMember(b, at);
    }
    int count = readUnsignedShort(b, at);
    at += 2;
    Map<String, int[]> codes = new HashMap<>();
    for (int i = 0; i < count; i++) {
      String key = pool.utf8(b, readUnsignedShort(b, at + 2))
          + pool.utf8(b, readUnsignedShort(b, at + 4));
      int attributes = readUnsignedShort(b, at + 6);
      at += 8;
      for (int a = 0; a < attributes; a++) {
        int length = readInt(b, at + 2);
        if ("Code".equals(pool.utf8(b, readUnsignedShort(b, at)))) {
          codes.put(key, new int[] {at + 2, 4 + length});
        }
        at += 6 + length;
      }
    }
    // The class's own attributes: a BootstrapMethods one (an invokedynamic or a dynamic constant
    // in the woven code) is merged with the original's, under the key ""
    int attributes = readUnsignedShort(b, at);
    at += 2;
    for (int a = 0; a < attributes; a++) {
      int length = readInt(b, at + 2);
      if ("BootstrapMethods".equals(pool.utf8(b, readUnsignedShort(b, at)))) {
        codes.put(BOOTSTRAP_METHODS, new int[] {at, 6 + length});
      }
      at += 6 + length;
    }
    return codes;
  }

  /** One constant of the woven class, its references to others moved past the original pool. */
  private static void appendConstant(Out out, byte[] b, int at, int shift, int bootstrapShift)
      throws CannotSplice {
    int tag = b[at] & 0xFF;
    int length = entryLength(b, at);
    switch (tag) {
      case 7: // Class
      case 8: // String
      case 16: // MethodType
        out.u1(tag);
        out.u2(moved(readUnsignedShort(b, at + 1), shift));
        break;
      case 9: // Fieldref
      case 10: // Methodref
      case 11: // InterfaceMethodref
      case 12: // NameAndType
        out.u1(tag);
        out.u2(moved(readUnsignedShort(b, at + 1), shift));
        out.u2(moved(readUnsignedShort(b, at + 3), shift));
        break;
      case 15: // MethodHandle
        out.u1(tag);
        out.u1(b[at + 1] & 0xFF);
        out.u2(moved(readUnsignedShort(b, at + 2), shift));
        break;
      case 1: // Utf8
      case 3: // Integer
      case 4: // Float
      case 5: // Long
      case 6: // Double
        out.bytes(b, at, length);
        break;
      case 17: // Dynamic
      case 18: // InvokeDynamic
        out.u1(tag);
        out.u2(readUnsignedShort(b, at + 1) + bootstrapShift); // after the original's
        out.u2(moved(readUnsignedShort(b, at + 3), shift));
        break;
      default: // modules, packages: not in a method's code
        throw new CannotSplice();
    }
  }

  /** Where a constant of the woven class lands in the spliced one. */
  static int moved(int index, int shift) throws CannotSplice {
    if (index < FIRST_APPENDED) {
      throw new CannotSplice(); // one of the placeholders, or an ldc's one-byte index: not expected of ASM
    }
    return index + shift;
  }

  private static int skipMember(byte[] b, int at) {
    int attributes = readUnsignedShort(b, at + 6);
    at += 8;
    for (int i = 0; i < attributes; i++) {
      at += 6 + readInt(b, at + 2);
    }
    return at;
  }

  /** Where each constant of a class file starts (0 for a long's or double's second index). */
  private static final class Pool {
    final int count;
    final int[] offsets;
    /** Where the pool ends: the class's access flags. */
    final int end;

    private Pool(int count, int[] offsets, int end) {
      this.count = count;
      this.offsets = offsets;
      this.end = end;
    }

    static Pool of(byte[] b) throws CannotSplice {
      int count = readUnsignedShort(b, POOL_COUNT);
      int[] offsets = new int[count];
      int at = POOL_START;
      for (int index = 1; index < count; index++) {
        offsets[index] = at;
        int length = entryLength(b, at);
        if (length < 0) {
          throw new CannotSplice();
        }
        if (takesTwoIndexes(b, at)) {
          index++;
        }
        at += length;
      }
      return new Pool(count, offsets, at);
    }

    String utf8(byte[] b, int index) {
      int at = offsets[index];
      return new String(b, at + 3, readUnsignedShort(b, at + 1), StandardCharsets.ISO_8859_1);
    }
  }

  /** The spliced class file as it is written. */
  private static final class Out {
    private byte[] bytes;
    private int length;

    Out(int capacity) {
      bytes = new byte[capacity];
    }

    void u1(int value) {
      ensure(1);
      bytes[length++] = (byte) value;
    }

    void u4(int value) {
      u2(value >>> 16);
      u2(value & 0xFFFF);
    }

    /** {@code count} bootstrap methods of the woven class, their constants moved. */
    void bootstrapMethods(byte[] b, int at, int count, int shift) throws CannotSplice {
      for (int i = 0; i < count; i++) {
        u2(moved(readUnsignedShort(b, at), shift));
        int arguments = readUnsignedShort(b, at + 2);
        u2(arguments);
        at += 4;
        for (int a = 0; a < arguments; a++, at += 2) {
          u2(moved(readUnsignedShort(b, at), shift));
        }
      }
    }

    void u2(int value) {
      ensure(2);
      bytes[length++] = (byte) (value >>> 8);
      bytes[length++] = (byte) value;
    }

    void bytes(byte[] from, int at, int count) {
      ensure(count);
      System.arraycopy(from, at, bytes, length, count);
      length += count;
    }

    /**
     * A Code attribute of the woven class (from its length on), its constants moved: in its
     * instructions, its exception handlers, its stack map frames and debug tables.
     */
    void code(byte[] b, int at, int size, Pool pool, int shift) throws CannotSplice {
      int start = length;
      bytes(b, at, size);
      int codeLength = readInt(bytes, start + 8);
      int code = start + 12;
      movePoolIndexesInCode(code, codeLength, shift);
      int p = code + codeLength;
      int handlers = readUnsignedShort(bytes, p);
      p += 2;
      for (int i = 0; i < handlers; i++, p += 8) {
        int catchType = readUnsignedShort(bytes, p + 6);
        if (catchType != 0) {
          put2(p + 6, moved(catchType, shift));
        }
      }
      int attributes = readUnsignedShort(bytes, p);
      p += 2;
      for (int i = 0; i < attributes; i++) {
        int nameIndex = readUnsignedShort(bytes, p);
        String name = pool.utf8(b, nameIndex);
        int attributeLength = readInt(bytes, p + 2);
        put2(p, moved(nameIndex, shift));
        int body = p + 6;
        if (name.equals("StackMapTable")) {
          moveFrames(body, shift);
        } else if (name.equals("LocalVariableTable") || name.equals("LocalVariableTypeTable")) {
          int entries = readUnsignedShort(bytes, body);
          for (int e = 0, q = body + 2; e < entries; e++, q += 10) {
            put2(q + 4, moved(readUnsignedShort(bytes, q + 4), shift));
            put2(q + 6, moved(readUnsignedShort(bytes, q + 6), shift));
          }
        } else if (!name.equals("LineNumberTable")) {
          throw new CannotSplice(); // type annotations on the code, or an attribute this does not know
        }
        p = body + attributeLength;
      }
    }

    private void movePoolIndexesInCode(int code, int codeLength, int shift) throws CannotSplice {
      int pc = 0;
      while (pc < codeLength) {
        int at = code + pc;
        int opcode = bytes[at] & 0xFF;
        switch (opcode) {
          case 0x13: // ldc_w
          case 0x14: // ldc2_w
          case Opcodes.GETSTATIC:
          case Opcodes.PUTSTATIC:
          case Opcodes.GETFIELD:
          case Opcodes.PUTFIELD:
          case Opcodes.INVOKEVIRTUAL:
          case Opcodes.INVOKESPECIAL:
          case Opcodes.INVOKESTATIC:
          case Opcodes.NEW:
          case Opcodes.ANEWARRAY:
          case Opcodes.CHECKCAST:
          case Opcodes.INSTANCEOF:
            put2(at + 1, moved(readUnsignedShort(bytes, at + 1), shift));
            pc += 3;
            break;
          case Opcodes.INVOKEINTERFACE:
          case 0xba: // invokedynamic
            put2(at + 1, moved(readUnsignedShort(bytes, at + 1), shift));
            pc += 5;
            break;
          case Opcodes.MULTIANEWARRAY:
            put2(at + 1, moved(readUnsignedShort(bytes, at + 1), shift));
            pc += 4;
            break;
          case Opcodes.TABLESWITCH: {
            int q = pc + 4 - (pc & 3); // past the padding
            int low = readInt(bytes, code + q + 4);
            int high = readInt(bytes, code + q + 8);
            pc = q + 12 + 4 * (high - low + 1);
            break;
          }
          case Opcodes.LOOKUPSWITCH: {
            int q = pc + 4 - (pc & 3);
            int pairs = readInt(bytes, code + q + 4);
            pc = q + 8 + 8 * pairs;
            break;
          }
          case 0xc4: // wide
            pc += (bytes[at + 1] & 0xFF) == Opcodes.IINC ? 6 : 4;
            break;
          default:
            int instructionLength = OTHER_LENGTHS[opcode];
            if (instructionLength == 0) {
              throw new CannotSplice(); // ldc (a one-byte index), or not an instruction
            }
            pc += instructionLength;
        }
      }
    }

    private void moveFrames(int at, int shift) throws CannotSplice {
      int frames = readUnsignedShort(bytes, at);
      at += 2;
      for (int i = 0; i < frames; i++) {
        int type = bytes[at++] & 0xFF;
        if (type < 64) {
          continue; // same frame
        } else if (type < 128) {
          at = moveVerificationTypes(at, 1, shift);
        } else if (type < 247) {
          throw new CannotSplice(); // reserved
        } else if (type == 247) {
          at = moveVerificationTypes(at + 2, 1, shift);
        } else if (type < 252) {
          at += 2; // chop, same extended
        } else if (type < 255) {
          at = moveVerificationTypes(at + 2, type - 251, shift);
        } else { // full frame: its locals, then its stack
          at = moveVerificationTypes(at + 4, readUnsignedShort(bytes, at + 2), shift);
          at = moveVerificationTypes(at + 2, readUnsignedShort(bytes, at), shift);
        }
      }
    }

    /** Past {@code count} verification types from {@code at}, each class moved. */
    private int moveVerificationTypes(int at, int count, int shift) throws CannotSplice {
      for (int i = 0; i < count; i++) {
        int tag = bytes[at++] & 0xFF;
        if (tag == 7) { // Object: a class constant
          put2(at, moved(readUnsignedShort(bytes, at), shift));
          at += 2;
        } else if (tag == 8) { // Uninitialized: an offset
          at += 2;
        }
      }
      return at;
    }

    private void put2(int at, int value) {
      bytes[at] = (byte) (value >>> 8);
      bytes[at + 1] = (byte) value;
    }

    private void ensure(int more) {
      if (length + more > bytes.length) {
        bytes = java.util.Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
      }
    }

    byte[] toByteArray() {
      return length == bytes.length ? bytes : java.util.Arrays.copyOf(bytes, length);
    }
  }

  /**
   * The length of each instruction that holds no constant pool index and has a fixed length; 0 for
   * the others (handled apart, or refused).
   */
  private static final byte[] OTHER_LENGTHS = new byte[256];

  static {
    for (int opcode = 0; opcode <= 0xc9; opcode++) {
      OTHER_LENGTHS[opcode] = 1;
    }
    int[] two = {0x10, 0x15, 0x16, 0x17, 0x18, 0x19, 0x36, 0x37, 0x38, 0x39, 0x3a, 0xa9, 0xbc};
    for (int opcode : two) {
      OTHER_LENGTHS[opcode] = 2;
    }
    OTHER_LENGTHS[0x11] = 3; // sipush
    OTHER_LENGTHS[0x84] = 3; // iinc
    for (int opcode = 0x99; opcode <= 0xa8; opcode++) {
      OTHER_LENGTHS[opcode] = 3; // the ifs, goto, jsr
    }
    OTHER_LENGTHS[0xc6] = 3; // ifnull
    OTHER_LENGTHS[0xc7] = 3; // ifnonnull
    OTHER_LENGTHS[0xc8] = 5; // goto_w
    OTHER_LENGTHS[0xc9] = 5; // jsr_w
    // handled apart: those with a pool index, the switches, wide; refused: ldc
    int[] apart = {0x12, 0x13, 0x14, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xbb,
        0xbd, 0xc0, 0xc1, 0xc5, 0xaa, 0xab, 0xc4};
    for (int opcode : apart) {
      OTHER_LENGTHS[opcode] = 0;
    }
  }

  /**
   * Hands ASM's writer the woven methods only, with the class's header: the rest of the class is
   * copied from the original bytes.
   */
  private static final class OnlyWoven extends ClassVisitor {
    private final Woven woven;

    OnlyWoven(ClassVisitor weaving, Woven woven) {
      super(Opcodes.ASM9, weaving);
      this.woven = woven;
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
        String[] exceptions) {
      return woven.isWoven(access, name, descriptor)
          ? super.visitMethod(access, name, descriptor, signature, exceptions)
          : null;
    }

    @Override
    public void visitSource(String source, String debug) {}

    @Override
    public ModuleVisitor visitModule(String name, int access, String version) {
      return null;
    }

    @Override
    public void visitNestHost(String nestHost) {}

    @Override
    public void visitOuterClass(String owner, String name, String descriptor) {}

    @Override
    public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
      return null;
    }

    @Override
    public AnnotationVisitor visitTypeAnnotation(int typeRef, TypePath typePath, String descriptor,
        boolean visible) {
      return null;
    }

    @Override
    public void visitAttribute(Attribute attribute) {}

    @Override
    public void visitNestMember(String nestMember) {}

    @Override
    public void visitPermittedSubclass(String permittedSubclass) {}

    @Override
    public void visitInnerClass(String name, String outerName, String innerName, int access) {}

    @Override
    public RecordComponentVisitor visitRecordComponent(String name, String descriptor,
        String signature) {
      return null;
    }

    @Override
    public FieldVisitor visitField(int access, String name, String descriptor, String signature,
        Object value) {
      return null;
    }
  }
}
