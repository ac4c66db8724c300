package io.tollgate.instrumentation;

/**
 * The few facts of the class file format that the start-up pre-filters ({@link
 * EntryPointClassFiles}, {@link DeclaredMethods}) read straight from a class's bytes: big-endian
 * numbers, and how long each constant pool entry is, so that both walk the pool the same way; and
 * the class loaders' weaving, which writes its few instructions into the bytes ({@code
 * LoadClassPrologue}).
 */
public final class ClassFileBytes {

  static final int MAGIC = 0xCAFEBABE;
  /** Where the constant pool's count is, and where its first entry starts. */
  public static final int POOL_COUNT = 8;
  public static final int POOL_START = 10;

  public static final int UTF8 = 1;
  static final int CLASS = 7;
  static final int LONG = 5;
  static final int DOUBLE = 6;

  private ClassFileBytes() {}

  /** True when {@code b} can be a class file: long enough for its header, and the magic number. */
  public static boolean looksLikeClassFile(byte[] b) {
    return b != null && b.length >= POOL_START && readInt(b, 0) == MAGIC;
  }

  /**
   * The length in bytes of each constant pool entry of a fixed length, its tag included, by tag; 0
   * for a string ({@link #UTF8}, its length follows its tag) and for a tag this reader does not
   * know. A table, not a switch: the pre-filter reads it for every entry of every class the
   * application loads, mostly interpreted, where a call per entry costs as much as the rest.
   */
  static final byte[] FIXED_LENGTH = {
    0, // 0: none
    0, // 1: Utf8, its length follows
    0, // 2: none
    5, // 3: Integer
    5, // 4: Float
    9, // 5: Long
    9, // 6: Double
    3, // 7: Class
    3, // 8: String
    5, // 9: Fieldref
    5, // 10: Methodref
    5, // 11: InterfaceMethodref
    5, // 12: NameAndType
    0, // 13: none
    0, // 14: none
    4, // 15: MethodHandle
    3, // 16: MethodType
    5, // 17: Dynamic
    5, // 18: InvokeDynamic
    3, // 19: Module
    3, // 20: Package
  };

  /**
   * The length in bytes of the constant pool entry at {@code at}, its tag included; -1 for a tag
   * this reader does not know (a newer class file format: the caller then judges nothing).
   */
  public static int entryLength(byte[] b, int at) {
    int tag = b[at] & 0xFF;
    if (tag == UTF8) {
      return 3 + readUnsignedShort(b, at + 1);
    }
    int length = tag < FIXED_LENGTH.length ? FIXED_LENGTH[tag] : 0;
    return length == 0 ? -1 : length;
  }

  /** True for the entries that take two indexes of the pool (a long or a double). */
  public static boolean takesTwoIndexes(byte[] b, int at) {
    int tag = b[at] & 0xFF;
    return tag == LONG || tag == DOUBLE;
  }

  /**
   * Where each constant of the pool starts, written into {@code entries} by index (its length the
   * pool's count); the pool's end, or -1 for a pool this reader does not know.
   */
  public static int indexPool(byte[] b, int[] entries) {
    int at = POOL_START;
    for (int index = 1; index < entries.length; index++) {
      entries[index] = at;
      int length = entryLength(b, at);
      if (length < 0) {
        return -1;
      }
      if (takesTwoIndexes(b, at)) {
        index++;
      }
      at += length;
    }
    return at;
  }

  /**
   * Where the methods' count is, from the pool's end: past the access flags, this and super
   * class, the interfaces and the fields.
   */
  public static int methodsAt(byte[] b, int poolEnd) {
    int at = poolEnd + 6;
    at += 2 + 2 * readUnsignedShort(b, at); // interfaces
    int fields = readUnsignedShort(b, at);
    at += 2;
    for (int i = 0; i < fields; i++) {
      at = skipMember(b, at);
    }
    return at;
  }

  /** Past a field or method at {@code at}: its access, name and descriptor, then its attributes. */
  public static int skipMember(byte[] b, int at) {
    int attributes = readUnsignedShort(b, at + 6);
    at += 8;
    for (int i = 0; i < attributes; i++) {
      at += 6 + readInt(b, at + 2);
    }
    return at;
  }

  public static int readUnsignedShort(byte[] b, int at) {
    return ((b[at] & 0xFF) << 8) | (b[at + 1] & 0xFF);
  }

  public static int readInt(byte[] b, int at) {
    return (readUnsignedShort(b, at) << 16) | readUnsignedShort(b, at + 2);
  }
}
