package io.tollgate.instrumentation;

/**
 * The few facts of the class file format that the start-up pre-filters ({@link
 * EntryPointClassFiles}, {@link DeclaredMethods}) read straight from a class's bytes: big-endian
 * numbers, and how long each constant pool entry is, so that both walk the pool the same way.
 */
final class ClassFileBytes {

  static final int MAGIC = 0xCAFEBABE;
  /** Where the constant pool's count is, and where its first entry starts. */
  static final int POOL_COUNT = 8;
  static final int POOL_START = 10;

  static final int UTF8 = 1;
  static final int CLASS = 7;
  private static final int LONG = 5;
  private static final int DOUBLE = 6;

  private ClassFileBytes() {}

  /** True when {@code b} can be a class file: long enough for its header, and the magic number. */
  static boolean looksLikeClassFile(byte[] b) {
    return b != null && b.length >= POOL_START && readInt(b, 0) == MAGIC;
  }

  /**
   * The length in bytes of the constant pool entry at {@code at}, its tag included; -1 for a tag
   * this reader does not know (a newer class file format: the caller then judges nothing).
   */
  static int entryLength(byte[] b, int at) {
    switch (b[at] & 0xFF) {
      case UTF8:
        return 3 + readUnsignedShort(b, at + 1);
      case 3: // Integer
      case 4: // Float
      case 9: // Fieldref
      case 10: // Methodref
      case 11: // InterfaceMethodref
      case 12: // NameAndType
      case 17: // Dynamic
      case 18: // InvokeDynamic
        return 5;
      case LONG:
      case DOUBLE:
        return 9;
      case CLASS:
      case 8: // String
      case 16: // MethodType
      case 19: // Module
      case 20: // Package
        return 3;
      case 15: // MethodHandle
        return 4;
      default:
        return -1;
    }
  }

  /** True for the entries that take two indexes of the pool (a long or a double). */
  static boolean takesTwoIndexes(byte[] b, int at) {
    int tag = b[at] & 0xFF;
    return tag == LONG || tag == DOUBLE;
  }

  static int readUnsignedShort(byte[] b, int at) {
    return ((b[at] & 0xFF) << 8) | (b[at + 1] & 0xFF);
  }

  static int readInt(byte[] b, int at) {
    return (readUnsignedShort(b, at) << 16) | readUnsignedShort(b, at + 2);
  }
}
